public import ArgumentParser
import AppRepository

/// `sign-in`: starts a session in the chosen store (replacing any other there).
public struct SignInCommand<Kind: ProgramKind>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "sign-in",
            abstract: "Sign in with email and password\(Kind.isAdminOnly ? " (admins only)" : ", or anonymously"), and keep the session in the store.",
            discussion: "The password comes from --password-stdin, APP_PASSWORD, or a prompt without echo."
        )
    }

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var credentials: CredentialOptions

    @Flag(help: "Sign in as a new anonymous member (no email or password).")
    public var anonymous = false

    @Flag(name: .customLong("move-aside"), help: ArgumentHelp(
        "When the store does not decrypt, move it aside (kept, never deleted) and sign in. Only when the passphrase or key is right: a wrong one looks the same. A damaged store (truncated, foreign, another version) is moved aside without it."))
    public var moveAside = false

    public init() {}

    public func validate() throws {
        if anonymous, Kind.isAdminOnly {
            throw ValidationError("anonymous members cannot be admins")
        }
        if anonymous, credentials.email != nil || credentials.passwordStdin {
            throw ValidationError("--anonymous takes no email or password")
        }
    }

    public func run() async throws {
        try await Runner.run(global, purpose: .startSession, movesAsideUndecryptable: moveAside, prepare: { () throws(CLIError) -> (email: String, password: String)? in
            anonymous ? nil : (try credentials.resolvedEmail(), try credentials.resolvedPassword())
        }) { context, login in
            let member: Member
            if let login, Kind.isAdminOnly {
                // Look at the role before keeping anything: a member's sign-in must not
                // replace the session already in the store.
                let session = try await AuthAPI.signIn(email: login.email, password: login.password,
                                                       server: context.service.server)
                if session.member.role != .admin {
                    try? await AuthAPI.signOut(refreshToken: session.tokens.refreshToken, server: context.service.server,
                                               accessToken: session.tokens.accessToken)
                    try AdminCheck.requireAdmin(session.member)
                }
                member = try await context.service.startSession(session)
            } else if let login {
                member = try await context.service.signIn(email: login.email, password: login.password)
            } else {
                member = try await context.service.signInAnonymously()
            }
            Output.writeError("signed in as \(TerminalText.safe(member.nickname))")
            try context.output.show(member)
        }
    }
}
