import CLISupport
import Foundation
import NetworkService

/// The token a credential helper hands to another program (git, kubectl): the session's
/// access token with at least `minimumValidity` seconds left (else renewed first, once between
/// the processes sharing the store), and when it expires.
struct HelperToken {
    /// The access token.
    let token: AccessToken
    /// When it expires, when the store knows.
    let expiresAt: Date?

    /// What a helper says for a DPoP-bound session: its token works only with a proof, which
    /// the other program cannot send.
    static let dpopBound = CLIError(.usage, "the session is DPoP-bound: its token works only with a proof, which this program cannot send",
                                    hint: "sign in without --dpop for a session other programs can use")

    /// The token of the session in `context`.
    /// - Throws: ``dpopBound`` for a DPoP-bound session (before any refresh); what the session throws.
    static func fetch(_ context: OAuthContext, minimumValidity: TimeInterval) async throws -> HelperToken {
        let profile = try await context.profile()
        if profile.dpop != nil { throw dpopBound }
        let provider = try await context.provider(profile)
        let session = try context.session(profile, provider: provider, minimumValidity: minimumValidity)
        let token = try await session.request { _, token in token }
        if token.scheme != .bearer { throw dpopBound }
        let stored = try await context.store.store.load()
        return HelperToken(token: token, expiresAt: stored?.accessToken.rawValue == token.rawValue ? stored?.accessTokenExpiresAt : nil)
    }
}
