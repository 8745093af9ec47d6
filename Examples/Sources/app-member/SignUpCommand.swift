import ArgumentParser
import CLISupport

/// `sign-up`: creates an account and keeps its session in the store.
struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-up",
        abstract: "Create an account and sign in.",
        discussion: "The password (8-128 characters) comes from --password-stdin, APP_PASSWORD, or a prompt without echo."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var credentials: CredentialOptions

    @Option(help: "The name others see (1-30 characters).")
    var nickname: String

    func run() async throws {
        try await Runner.run(global, purpose: .startSession, prepare: { () throws(CLIError) in
            (email: try credentials.resolvedEmail(), password: try credentials.resolvedPassword(confirm: true))
        }) { context, login in
            let member = try await context.service.signUp(email: login.email, password: login.password, nickname: nickname)
            Output.writeError("signed up and signed in as \(TerminalText.safe(member.nickname))")
            try context.output.show(member)
        }
    }
}
