public import ArgumentParser
import AppRepository
import SessionEngine
import TokenStore

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

    /// `--dpop [eddsa|es256]`: the kind of DPoP key the session is bound to. A string, checked
    /// in `validate()` (``DPoPKeyChoice/validated(_:)``), so that an unknown kind is named.
    @Option(name: .customLong("dpop"), defaultAsFlag: DPoPKeyChoice.eddsa.rawValue, parsing: .next, help: DPoPKeyChoice.help)
    public var dpopKind: String?

    public init() {}

    public func validate() throws {
        _ = try DPoPKeyChoice.validated(dpopKind)
        if anonymous, Kind.isAdminOnly {
            throw ValidationError("anonymous members cannot be admins")
        }
        if anonymous, credentials.email != nil || credentials.passwordStdin {
            throw ValidationError("--anonymous takes no email or password")
        }
    }

    public func run() async throws {
        let dpop = try dpopKind.flatMap(DPoPKeyChoice.init(rawValue:))?.keyKind()
        try await Runner.run(global, purpose: .startSession, movesAsideUndecryptable: moveAside, dpop: dpop, prepare: { () throws(CLIError) -> (email: String, password: String)? in
            anonymous ? nil : (try credentials.resolvedEmail(), try credentials.resolvedPassword())
        }) { context, login in
            let member: Member
            if let login, Kind.isAdminOnly, dpop != nil {
                // The role is looked at inside the engine's DPoP sign-in, before it keeps
                // anything: a member's sign-in is ended and throws, so nothing is stored. The
                // session is kept under the member's id, as every other sign-in keeps it.
                member = try await context.service.startSession { server in
                    let session = try await AuthAPI.signIn(email: login.email, password: login.password, server: server)
                    if session.member.role != .admin {
                        try? await AuthAPI.signOut(refreshToken: session.tokens.refreshToken, server: server,
                                                   accessToken: session.tokens.accessToken)
                        try AdminCheck.requireAdmin(session.member)
                    }
                    return (session.tokens, session.member.id.uuidString, session.member)
                }.answer
            } else if let login, Kind.isAdminOnly {
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
            Output.writeError("signed in as \(TerminalText.safe(member.nickname))"
                              + (dpop == nil ? "" : ", " + DPoPStatus.line(DPoPStatus((try? await context.service.tokenStore.load())?.dpopKey))))
            try context.output.show(member)
        }
    }
}
