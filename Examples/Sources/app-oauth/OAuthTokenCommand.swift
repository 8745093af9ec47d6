import ArgumentParser
import CLISupport
import SessionEngine

/// `token`: prints a fresh access token on stdout, for scripts
/// (`curl -H "Authorization: Bearer $(app-oauth token)"`). The only command that prints one.
struct OAuthTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh access token on stdout (renewed first when due), for scripts.",
        discussion: "The only command that prints a token. Processes sharing the store renew it once between them."
    )

    @OptionGroup var global: StoreOptions

    func run() async throws {
        try await OAuthContext.run(global) { context in
            let profile = try await context.profile()
            let provider = try await context.provider(profile)
            let session = try context.session(profile, provider: provider)
            let token = try await session.request { _, token in token }
            // Asked for explicitly: the raw token, alone on stdout (with --json too, as JSON).
            try context.output.result(["accessToken": token.rawValue]) { token.rawValue }
        }
    }
}
