import ArgumentParser
import CLISupport
import Foundation
import TokenStore

/// `status`: whether a session is kept, with which server and client, and until when its
/// access token is good; reads the store and the profile only (no network).
struct OAuthStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether a session is kept, where, when its access token expires, and whether it is DPoP-bound (offline)."
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
        /// The session's DPoP key (algorithm and thumbprint; `null` for a bearer session):
        /// written as `null` rather than left out, so a script can tell a bearer session from
        /// an older app-oauth's output.
        let dpop: DPoPStatus?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(signedIn, forKey: .signedIn)
            try container.encodeIfPresent(accountID, forKey: .accountID)
            try container.encodeIfPresent(issuer, forKey: .issuer)
            try container.encodeIfPresent(clientID, forKey: .clientID)
            try container.encodeIfPresent(flow, forKey: .flow)
            try container.encodeIfPresent(scopes, forKey: .scopes)
            try container.encodeIfPresent(accessTokenExpiresAt, forKey: .accessTokenExpiresAt)
            if signedIn { try container.encode(dpop, forKey: .dpop) }
        }

        private enum CodingKeys: String, CodingKey {
            case signedIn, accountID, issuer, clientID, flow, scopes, accessTokenExpiresAt, dpop
        }
    }

    func run() async throws {
        try await OAuthContext.run(global) { context in
            let credentials = try await context.store.store.load()
            let profile = try OAuthProfile.load(context.profileURL)
            let outcome = Outcome(signedIn: credentials != nil, accountID: credentials?.accountID,
                                  issuer: profile?.issuer.absoluteString, clientID: profile?.clientID,
                                  flow: profile?.mode.rawValue, scopes: profile?.scopes,
                                  accessTokenExpiresAt: credentials?.accessTokenExpiresAt,
                                  dpop: DPoPStatus(credentials?.dpopKey))
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
                lines.append("  session: \(DPoPStatus.line(outcome.dpop))")
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
