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
                var lines = ["signed in as \(TerminalText.safe(credentials.accountID))"]
                if let profile {
                    lines.append("  issuer: \(profile.issuer.absoluteString)")
                    lines.append("  client: \(profile.clientID) (\(profile.mode.rawValue))")
                    if !profile.scopes.isEmpty { lines.append("  scopes: \(profile.scopes.joined(separator: " "))") }
                }
                if let expiry = credentials.accessTokenExpiresAt {
                    lines.append(Self.expiryLine(expiry))
                }
                return lines.joined(separator: "\n")
            }
            // Said on stdout already: only the status (65), no message on stderr too.
            if credentials == nil { throw ExitCode(ExitStatus.notSignedIn.rawValue) }
        }
    }

    /// Whole seconds from `now` to `date`, bounded to ±10^12 (about 31,700 years) so that no
    /// date, however absurd (the store bounds its dates, but this does not rely on it),
    /// converts out of `Int`'s range; `nil` for a date that is not a number.
    static func wholeSeconds(until date: Date, from now: Date = Date()) -> Int? {
        let seconds = date.timeIntervalSince(now)
        guard !seconds.isNaN else { return nil }
        return Int(min(max(seconds, -1e12), 1e12).rounded())
    }

    /// The status line for an access token that expires at `expiry`.
    static func expiryLine(_ expiry: Date, now: Date = Date()) -> String {
        guard let seconds = wholeSeconds(until: expiry, from: now) else { return "  access token: expiry unknown" }
        return seconds > 0 ? "  access token: good for \(seconds) s more" : "  access token: expired (the next command renews it)"
    }
}
