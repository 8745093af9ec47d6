import ArgumentParser
import CLISupport
import NetworkService
import OAuthSignIn
import SessionEngine

/// `whoami`: who the session is: the server's userinfo, else the ID token's claims from the
/// sign-in, else the account id.
struct OAuthWhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who is signed in (userinfo, or the ID token's claims)."
    )

    @OptionGroup var global: StoreOptions

    struct Outcome: Encodable {
        let accountID: String
        let source: String
        let claims: [String: JSONValue]
    }

    func run() async throws {
        try await OAuthContext.run(global) { context in
            let profile = try await context.profile()
            let provider = try await context.provider(profile)
            let session = try context.session(profile, provider: provider)
            guard let accountID = try await session.signedInAccountID() else {
                throw CLIError(.notSignedIn, "not signed in", hint: "run app-oauth sign-in first (same --store and --store-path)")
            }
            let outcome: Outcome
            if profile.mode != .clientCredentials, provider.metadata.userinfoEndpoint != nil {
                // Refreshed and asked again once after a 401; about this session's account only.
                let claims = try await session.userInfo(from: provider)
                outcome = Outcome(accountID: accountID, source: "userinfo", claims: claims)
            } else if let claims = profile.idTokenClaims {
                outcome = Outcome(accountID: accountID, source: "id-token", claims: claims)
            } else {
                outcome = Outcome(accountID: accountID, source: "session", claims: [:])
            }
            try context.output.result(outcome) {
                let name = outcome.claims["preferred_username"]?.string ?? outcome.claims["name"]?.string ?? outcome.claims["email"]?.string
                // The server chose the name and the account id (userinfo, the ID token's `sub`).
                let account = TerminalText.safe(accountID)
                let who = name.map { "\(TerminalText.safe($0)) (\(account))" } ?? account
                return profile.mode == .clientCredentials ? "the client \(TerminalText.safe(profile.clientID)) itself (\(account))" : "\(who) at \(profile.issuer.absoluteString)"
            }
        }
    }
}
