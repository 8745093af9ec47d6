import ArgumentParser
import CLISupport
import SessionEngine

/// `token`: prints a fresh access token on stdout, for scripts
/// (`curl -H "Authorization: Bearer $(app-oauth token)"`). The only command that prints one.
struct OAuthTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh access token on stdout (renewed first when due), for scripts.",
        discussion: """
            The only command that prints a token. Processes sharing the store renew it once between them. \
            With a valid stored token it needs no network (the provider's discovery document is kept with the session).
            """
    )

    @Option(name: .customLong("min-valid"), help: ArgumentHelp(
        "Renew first when the token has fewer seconds left than this (or than half its lifetime, when that is shorter): the program it is for uses it later.",
        valueName: "seconds"))
    var minValid: Double = 5

    @OptionGroup var global: StoreOptions

    func validate() throws {
        guard minValid >= 0, minValid <= 86_400 else { throw ValidationError("--min-valid must be within 0…86400 seconds, got \(minValid)") }
    }

    func run() async throws {
        try await OAuthContext.run(global) { context in
            let profile = try await context.profile()
            let provider = try await context.provider(profile)
            let session = try context.session(profile, provider: provider, minimumValidity: minValid)
            let token = try await session.request { _, token in token }
            // Asked for explicitly: the raw token, alone on stdout (with --json too, as JSON).
            try context.output.result(["accessToken": token.rawValue]) { token.rawValue }
        }
    }
}
