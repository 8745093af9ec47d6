import ArgumentParser
import CLISupport
import Foundation
import TokenStore

/// `status`: whether a session is kept, with which server and client, and until when its
/// access token is good; reads the store and the profile only (no network).
struct OAuthStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether a session is kept, where, and when its access token expires (offline)."
    )

    @OptionGroup var global: StoreOptions

    struct Outcome: Encodable {
        let signedIn: Bool
        let accountID: String?
        let issuer: String?
        let clientID: String?
        let flow: String?
        let scopes: [String]?
        let accessTokenExpiresAt: Date?
    }

    func run() async throws {
        try await OAuthContext.run(global) { context in
            let credentials = try await context.store.store.load()
            let profile = try OAuthProfile.load(context.profileURL)
            let outcome = Outcome(signedIn: credentials != nil, accountID: credentials?.accountID,
                                  issuer: profile?.issuer.absoluteString, clientID: profile?.clientID,
                                  flow: profile?.mode.rawValue, scopes: profile?.scopes,
                                  accessTokenExpiresAt: credentials?.accessTokenExpiresAt)
            try context.output.result(outcome) {
                guard let credentials else { return "not signed in" }
                var lines = ["signed in as \(credentials.accountID)"]
                if let profile {
                    lines.append("  issuer: \(profile.issuer.absoluteString)")
                    lines.append("  client: \(profile.clientID) (\(profile.mode.rawValue))")
                    if !profile.scopes.isEmpty { lines.append("  scopes: \(profile.scopes.joined(separator: " "))") }
                }
                if let expiry = credentials.accessTokenExpiresAt {
                    let seconds = Int(expiry.timeIntervalSinceNow.rounded())
                    lines.append(seconds > 0 ? "  access token: good for \(seconds) s more" : "  access token: expired (the next command renews it)")
                }
                return lines.joined(separator: "\n")
            }
            if credentials == nil { throw CLIError(.notSignedIn, "not signed in") }
        }
    }
}
