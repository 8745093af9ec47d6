import Foundation
public import AppSDKTesting

/// How a ``HostileProvider`` answers, endpoint by endpoint. Every answer starts as a
/// well-behaved provider's (``HostileAnswers``); a mode replaces the one it attacks.
///
/// ```swift
/// let script = HostileScript { script in
///     script.token = { _ in .json(200, #"{"access_token":"AT","token_type":"mac"}"#) }
/// }
/// ```
public struct HostileScript: Sendable {
    /// An answer to one request.
    public typealias Answer = @Sendable (HostileContext) -> LoopbackHTTPServer.Reply

    /// The discovery document (`{issuer}/.well-known/openid-configuration`).
    public var discovery: Answer = HostileAnswers.discovery
    /// The token endpoint, for every grant.
    public var token: Answer = HostileAnswers.token
    /// The device authorization endpoint (RFC 8628 §3.1).
    public var deviceAuthorization: Answer = HostileAnswers.deviceAuthorization
    /// The userinfo endpoint.
    public var userinfo: Answer = HostileAnswers.userinfo
    /// The revocation endpoint (RFC 7009).
    public var revocation: Answer = HostileAnswers.revocation
    /// The API route `{issuer}/api/me`, which a signed-in session calls with its access token.
    public var api: Answer = HostileAnswers.api
    /// What the other origin answers (a token endpoint's answer, to tempt the client).
    public var trap: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in
        .json(200, #"{"access_token":"AT.trap-1","token_type":"Bearer","expires_in":3600}"#)
    }
    /// The client authentication the discovery document lists: `client_secret_basic` (the
    /// default) or `client_secret_post`.
    public var clientAuthentication = "client_secret_basic"
    /// Whether the provider is written with `https://` URLs (see ``HostileProvider/pretendsTLS``).
    public var pretendsTLS = false
    /// Whether the session under attack is bound to a DPoP key (RFC 9449): an EdDSA key the
    /// kit's sign-in makes, through the engine's `startSession(accountID:signingInWith:)` and
    /// `OAuthProvider.dpop`. The provider then lists EdDSA in `dpop_signing_alg_values_supported`,
    /// answers a token request carrying a proof with a `DPoP` token, and its API takes
    /// `Authorization: DPoP` with a proof.
    public var dpop = false

    /// A well-behaved provider's script, changed by `change`.
    public init(_ change: (inout HostileScript) -> Void = { _ in }) {
        change(&self)
    }

    func answer(for route: HostileProvider.Route) -> Answer {
        switch route {
        case .discovery: return discovery
        case .token: return token
        case .deviceAuthorization: return deviceAuthorization
        case .userinfo: return userinfo
        case .revocation: return revocation
        case .api: return api
        case .other: return { _ in .json(404, #"{"error":"not_found"}"#) }
        }
    }
}
