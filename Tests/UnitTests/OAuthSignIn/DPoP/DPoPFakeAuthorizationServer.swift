import AppSDKHarness
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine

/// An authorization server that speaks DPoP as glewlwyd 2.7.5 does (docs/OTHER-SERVERS.md,
/// "glewlwyd and DPoP"), on the harness's ``FakeTokenServer``: endpoints written without a
/// trailing slash and with the port spelled out, `htu` compared byte for byte, a proof's
/// signature, `typ`, `htm`, `iat` and `jti` checked, codes, device codes and refresh tokens
/// bound to the proving key's thumbprint, a bearer refresh token refused with a proof (403
/// `invalid_dpop_proof`), nonces when asked for (400 at the token endpoint, 401 with a `DPoP`
/// challenge at userinfo). Every request is recorded; every value a test could leak is in
/// ``secrets``.
///
/// In process (the default), the issuer is `https://auth-….example.test:8443/o` behind a
/// `TestTransport`; with `loopback`, it is `http://127.0.0.1:<port>/o` on a real socket,
/// reached through `URLSessionTransport`.
final class DPoPFakeAuthorizationServer: Sendable {
    static let clientID = "cli-public"
    static let confidentialClientID = "ci-job"
    static let clientSecret = "client-secret-Q7w9"

    struct State {
        /// `dpop_signing_alg_values_supported`; `nil`: not in the document.
        var algorithms: [String]? = ["ES256", "EdDSA"]
        /// Whether proofs must carry the current nonce.
        var requiresNonce = false
        var nonceSerial = 1
        /// Challenge every proof, whatever nonce it has (a hostile or broken server).
        var challengesEveryProof = false
        /// The `DPoP-Nonce` value challenges carry instead of the current nonce (a hostile one).
        var challengeNonceOverride: String?
        /// Error answers quote the proof and nonce they got in `error_description`.
        var echoesIntoErrors = false
        /// The `token_type` of every token answer instead of `DPoP`/`Bearer` as proved.
        var tokenTypeOverride: String?
        /// `expires_in` of every access token.
        var expiresIn = 300
        var codes: [String: IssuedCode] = [:]
        var deviceCode = ""
        var deviceJKT: String?
        var accessTokens: [String: String?] = [:]      // token: jkt
        var refreshTokens: [String: (jkt: String?, used: Bool)] = [:]
        var jtis: Set<String> = []
        var serial = 0
        var revoked: [(token: String, proved: Bool)] = []
        var secrets: [String] = [DPoPFakeAuthorizationServer.clientSecret]
    }

    /// An authorization code the server issued: what its token request must match, and, for
    /// an `openid` request, the nonce its ID token carries.
    struct IssuedCode {
        var challenge: String
        var redirectURI: String
        var jkt: String?
        var idTokenNonce: String?
        var clientID: String
    }

    let fake = FakeTokenServer(notFound: .json(404, #"{"error":"not_found"}"#))
    let issuer: URL
    let transport: any HTTPTransport
    let state: TestMutex<State>
    private let loopback: LoopbackHTTPServer?

    init(loopback: Bool = false) throws {
        state = TestMutex(State())
        if loopback {
            let server = try fake.serveOnLoopback()
            self.loopback = server
            issuer = URL(string: server.baseURL + "/o")!
            transport = URLSessionTransport()
        } else {
            self.loopback = nil
            issuer = URL(string: "https://auth-\(UUID().uuidString.prefix(8).lowercased()).example.test:8443/o")!
            transport = TestTransport(serving: fake)
        }
        Routes(issuer: issuer, state: state).install(on: fake)
    }

    deinit { loopback?.stop() }

    var base: String { issuer.absoluteString }
    var tokenEndpoint: String { base + "/token" }
    var userinfoEndpoint: String { base + "/userinfo" }
    /// Every request, in order.
    var requests: [FakeTokenServer.Request] { fake.requests }
    /// The requests to `path` under the issuer (`/token`, `/userinfo`…).
    func requests(to path: String) -> [FakeTokenServer.Request] {
        requests.filter { $0.path == issuer.path + path }
    }
    /// Every token, code, proof, nonce and secret the server saw or issued.
    var secrets: [String] { state.withLock { $0.secrets } }
    /// The nonce proofs must carry now.
    var currentNonce: String { state.withLock { Routes.nonce($0.nonceSerial) } }

    func configure(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// A provider discovered from this server, whose device polling does not wait.
    func provider(clientID: String = DPoPFakeAuthorizationServer.clientID, clientSecret: String? = nil) async throws -> OAuthProvider {
        var provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID, clientSecret: clientSecret,
                                                        transport: transport)
        provider.clock = SignInClock(now: { Date() }, sleep: { _ in try Task.checkCancellation() })
        return provider
    }

    /// The confidential client's provider.
    func confidentialProvider() async throws -> OAuthProvider {
        try await provider(clientID: Self.confidentialClientID, clientSecret: Self.clientSecret)
    }

    /// Proofs of a new Ed25519 key, with nonces of their own.
    static func proofing() throws -> DPoPProofing {
        DPoPProofing(signer: try EdDSASigner.generate(), nonces: DPoPNonces())
    }

    /// The user approves `authorizationURL`: the callback URL the server redirects to, its
    /// code bound to the request's `dpop_jkt` when it had one.
    func approve(_ authorizationURL: URL) -> URL {
        let query = Self.query(of: authorizationURL)
        let code = state.withLock { state -> String in
            state.serial += 1
            let code = "authorization-code-\(state.serial)-\(UUID().uuidString)"
            let openID = (query["scope"] ?? "").split(separator: " ").contains("openid")
            state.codes[code] = IssuedCode(challenge: query["code_challenge"] ?? "", redirectURI: query["redirect_uri"] ?? "",
                                           jkt: query["dpop_jkt"], idTokenNonce: openID ? query["nonce"] ?? "" : nil,
                                           clientID: query["client_id"] ?? "")
            state.secrets.append(code)
            return code
        }
        var components = URLComponents(string: query["redirect_uri"] ?? "")!
        components.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: query["state"])]
        return components.url!
    }

    static func query(of url: URL) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { values[item.name] = item.value }
        return values
    }

    /// A refresh token this server issued earlier, bound to `jkt` (`nil`: a bearer one).
    func issueRefreshToken(boundTo jkt: String?) -> String {
        state.withLock { state in
            state.serial += 1
            let token = "refresh-token-\(state.serial)-\(UUID().uuidString)"
            state.refreshTokens[token] = (jkt, false)
            state.secrets.append(token)
            return token
        }
    }
}
