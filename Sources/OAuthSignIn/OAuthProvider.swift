public import Foundation
public import NetworkService
public import SessionEngine
internal import TokenStore

/// An OAuth 2.0 / OpenID Connect authorization server and this program's client of it: the
/// server's ``metadata`` (usually discovered), the client id and, for a confidential client,
/// its secret. Every sign-in flow, and the session presets
/// ``SessionEngine/SessionService/Configuration/oauth2(_:)`` and
/// ``SessionEngine/SessionService/Configuration/clientCredentials(_:scopes:)``, start from one.
///
/// ```swift
/// let provider = try await OAuthProvider.discover(issuer: URL(string: "https://auth.example.com")!, clientID: "cli")
/// let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
/// ```
///
/// Printing it shows the issuer and the client id, never the secret.
public struct OAuthProvider: Sendable {
    /// The server's endpoints and capabilities.
    public let metadata: AuthorizationServerMetadata
    /// The client id.
    public let clientID: String
    /// The client secret of a confidential client; `nil` for a public one (which proves
    /// itself with PKCE).
    let clientSecret: String?
    /// How requests to the authorization server are sent.
    public let transport: any HTTPTransport
    /// The time ID tokens are checked against and device polling waits by. Default
    /// ``SignInClock/system``; tests pass one they move by hand.
    public var clock: SignInClock = .system
    /// The clock skew allowed when checking an ID token's `exp` and `iat`, in seconds. Default 300.
    public var clockSkew: TimeInterval = 300
    /// The kind of DPoP key (RFC 9449) a sign-in with this provider binds the session to, for
    /// example `.eddsa`; `nil` (the default): bearer sessions, as before.
    ///
    /// ``SessionEngine/SessionService/Configuration/oauth2(_:)`` and
    /// ``SessionEngine/SessionService/Configuration/clientCredentials(_:scopes:)`` copy it into
    /// ``/SessionEngine/SessionService/Configuration/dpop`` (answers with a bearer token refused);
    /// ``authorizationRequest(redirectURI:scopes:)`` makes a key of it for the code. The server
    /// must list the kind's algorithm in `dpop_signing_alg_values_supported`, else a sign-in
    /// fails before sending anything (``SignInError/Kind/dpopAlgorithmUnsupported``).
    public var dpop: DPoPKeyKind?

    /// A provider whose metadata you have (a server without discovery, or metadata you keep).
    /// - Parameters:
    ///   - metadata: The server's endpoints.
    ///   - clientID: The client id.
    ///   - clientSecret: The secret of a confidential client (sent with `client_secret_basic`,
    ///     or `client_secret_post` when the server lists only that).
    ///   - transport: How requests to the authorization server are sent.
    public init(metadata: AuthorizationServerMetadata, clientID: String, clientSecret: String? = nil,
                transport: any HTTPTransport = URLSessionTransport()) {
        self.metadata = metadata
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.transport = transport
    }

    /// Whether the client has a secret (is confidential).
    package var hasClientSecret: Bool { clientSecret != nil }

    /// Discovers the server at `issuer`: fetches `{issuer}/.well-known/openid-configuration`
    /// (OpenID Connect Discovery 1.0 §4), else the RFC 8414 document
    /// (`/.well-known/oauth-authorization-server` inserted before the issuer's path, RFC 8414
    /// §3.1), and checks that it names `issuer` as its issuer (a trailing slash aside). Each
    /// issuer's metadata is kept for the life of the process, so discovering it again sends nothing.
    ///
    /// - Throws: ``SignInError``: ``SignInError/Kind/discoveryDocumentMissing`` (neither
    ///   document, 404 or 410), ``SignInError/Kind/discoveryDocumentMalformed`` (not a JSON
    ///   object, no `issuer` or `token_endpoint`, an endpoint that is not an absolute http(s)
    ///   URL), ``SignInError/Kind/issuerMismatch``, ``SignInError/Kind/networkFailure``.
    public static func discover(issuer: URL, clientID: String, clientSecret: String? = nil,
                                transport: any HTTPTransport = URLSessionTransport()) async throws(SignInError) -> OAuthProvider {
        let metadata = try await Discovery.metadata(issuer: issuer, transport: transport)
        return OAuthProvider(metadata: metadata, clientID: clientID, clientSecret: clientSecret, transport: transport)
    }

    /// A new authorization request with PKCE (`S256`), a fresh `state` and, when `scopes`
    /// contains `openid`, a fresh `nonce`, for a redirect the app receives itself; finish with
    /// ``SignInFlow/callback(_:for:_:)``.
    ///
    /// With ``dpop`` set, the request makes a new key of that kind, names it in `dpop_jkt` (RFC
    /// 9449 §10, binding the code to it) and keeps it, in memory, for the callback: the code
    /// exchange proves it and the session stores it.
    /// - Throws: ``SignInError/Kind/pkceS256Unsupported`` when the server does not list `S256`;
    ///   ``SignInError/Kind/flowUnavailable`` without an authorization endpoint;
    ///   ``SignInError/Kind/dpopAlgorithmUnsupported`` when the server does not take ``dpop``'s
    ///   algorithm; ``SignInError/Kind/dpopKeyUnusable`` when no key could be made.
    public func authorizationRequest(redirectURI: URL, scopes: [String]) throws(SignInError) -> AuthorizationRequest {
        try authorizationRequest(redirectURI: redirectURI, scopes: scopes, requirement: nil)
    }

    /// ``authorizationRequest(redirectURI:scopes:)`` asking for `requirement` (a step-up,
    /// RFC 9470): the URL carries its `acr_values`, `max_age` and `prompt=login`, and
    /// ``SignInFlow/callback(_:for:_:)`` checks the ID token against it
    /// (``SignInFlow/requiring(_:)`` says how), failing with
    /// ``SignInError/Kind/authenticationRequirementNotMet``.
    public func authorizationRequest(redirectURI: URL, scopes: [String],
                                     requiring requirement: AuthenticationRequirement) throws(SignInError) -> AuthorizationRequest {
        try authorizationRequest(redirectURI: redirectURI, scopes: scopes, requirement: requirement)
    }

    private func authorizationRequest(redirectURI: URL, scopes: [String],
                                      requirement: AuthenticationRequirement?) throws(SignInError) -> AuthorizationRequest {
        guard let kind = dpop else {
            return try makeAuthorizationRequest(redirectURI: redirectURI, scopes: scopes, requirement: requirement)
        }
        let (key, signer): (DPoPKey, any DPoPSigner)
        do {
            (key, signer) = try kind.makeKeyAndSigner()
        } catch {
            throw SignInError.dpopKeyUnusable.with(detail: "No \(Redaction.printable(String(kind.algorithm.prefix(16)))) DPoP key could be made.", underlying: error)
        }
        return try makeAuthorizationRequest(redirectURI: redirectURI, scopes: scopes,
                                            proofing: DPoPProofing(signer: signer), dpopKey: key, requirement: requirement)
    }

    /// The OpenID Connect userinfo of the user `accessToken` belongs to (OpenID Connect Core §5.3).
    ///
    /// The answer must name its subject (`sub`), and when `subject` is given (the session's
    /// account), that one: OpenID Connect Core §5.3.4 says an answer about another user must
    /// not be used.
    /// - Parameters:
    ///   - accessToken: The access token to present, as `Authorization: Bearer`. A token bound
    ///     to a DPoP key (``/NetworkService/AccessToken/Scheme/dpop``) needs its session's key
    ///     to be presented: ask ``SessionEngine/SessionService/userInfo(from:)`` instead; here it
    ///     fails with ``SignInError/Kind/networkFailure`` before anything is sent.
    ///   - subject: The account the answer must be about, or `nil` to take any.
    /// - Throws: ``SignInError/Kind/flowUnavailable`` without a userinfo endpoint;
    ///   ``SignInError/Kind/networkFailure`` when the server refuses (401 for an expired token);
    ///   ``SignInError/Kind/invalidResponse`` when the answer is not a JSON object, has no `sub`,
    ///   or names another subject than `subject`.
    public func userInfo(accessToken: AccessToken, subject: String? = nil) async throws(SignInError) -> [String: JSONValue] {
        try await userInfo(accessToken: accessToken, subject: subject, proofing: nil)
    }

    /// ``userInfo(accessToken:subject:)``, presenting a DPoP-bound `accessToken` as
    /// `Authorization: DPoP` with a proof of `proofing`'s key carrying its `ath` (RFC 9449 §7).
    func userInfo(accessToken: AccessToken, subject: String?, proofing: DPoPProofing?) async throws(SignInError) -> [String: JSONValue] {
        guard let endpoint = metadata.userinfoEndpoint else {
            throw SignInError.flowUnavailable.with(detail: "The server has no userinfo endpoint.")
        }
        let claims: [String: JSONValue]
        do {
            claims = try await AuthorizationServerClient(provider: self, proofing: proofing).get(endpoint, accessToken: accessToken)
        } catch {
            throw SignInError.from(error, endpoint: "userinfo endpoint") { code in
                SignInError.networkFailure.with(detail: "The userinfo endpoint refused the access token (\(code)).")
            }
        }
        guard let sub = claims["sub"]?.string, !sub.isEmpty else {
            throw SignInError.invalidResponse.with(detail: "The userinfo endpoint's answer has no `sub`.")
        }
        if let problem = IDTokenValidator.problem(withSubject: sub) {
            throw SignInError.invalidResponse.with(detail: "The userinfo endpoint's `sub` \(problem).")
        }
        if let subject, sub != subject {
            throw SignInError.invalidResponse.with(detail: "The userinfo endpoint's answer is about another user than "
                + "the session's (OpenID Connect Core §5.3.4): it is not used.")
        }
        return claims
    }
}

extension OAuthProvider: CustomStringConvertible, CustomReflectable {
    /// `OAuthProvider(https://auth.example.com, client: cli)`; never the secret.
    public var description: String { "OAuthProvider(\(metadata.issuer.absoluteString), client: \(clientID))" }
    /// A mirror without the client secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["metadata": metadata, "clientID": clientID,
                                "clientSecret": clientSecret == nil ? "nil" : "<redacted>"])
    }
}
