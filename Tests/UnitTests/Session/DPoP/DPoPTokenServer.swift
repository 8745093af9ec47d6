import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import TokenStore

/// An OAuth 2.0 token endpoint and one resource that check nothing but count everything, for the
/// engine's DPoP tests: every request is kept (`transport.requests`), every proof can be verified
/// against the key it names. Each instance has a host of its own, so the process's nonces of one
/// test never reach another.
final class DPoPTokenServer: Sendable {
    /// How the token endpoint answers.
    enum Mode: Sendable {
        /// `token_type` DPoP.
        case dpop
        /// `token_type` Bearer, as a server that does not bind tokens.
        case bearer
        /// 400 `invalid_dpop_proof`.
        case refuseProofs
        /// A nonce challenge with a new nonce each time: the retry is challenged too.
        case challengeEveryTime
    }

    struct State: Sendable {
        var mode = Mode.dpop
        /// The nonce token requests must carry; `nil`: none needed.
        var requiredNonce: String?
        var issued = 0
        var nonceChallenges = 0
        var noncesIssued: [String] = []
        /// Access tokens the resource refuses with 401.
        var refusedAccessTokens: Set<String> = []
    }

    let transport = TestTransport()
    let state = TestMutex(State())
    let baseURL = "https://auth-\(UUID().uuidString.prefix(8).lowercased()).example.test"
    static let tokenPath = "/o/token/"
    static let resourcePath = "/v1/me"

    init() {
        transport.serve { [state] request in Self.answer(request, state: state) }
    }

    /// The server every service of the test talks to.
    func server() throws -> Server {
        try Server(baseURL: baseURL, transport: transport)
    }

    /// A configuration of the OAuth 2.0 preset, on `clock`, with DPoP keys of `kind` (or none).
    func configuration(clock: TestClock, dpop: DPoPConfiguration?) -> SessionService.Configuration {
        var configuration = SessionService.Configuration.oauth2(tokenEndpoint: "/o/token/", clientID: "cli")
        configuration.now = { clock.now }
        configuration.sleep = { _ in }
        configuration.dpop = dpop
        return configuration
    }

    func set(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    var tokenRequests: [HTTPRequest] { transport.requests.filter { $0.target == Self.tokenPath } }
    var resourceRequests: [HTTPRequest] { transport.requests.filter { $0.target == Self.resourcePath } }
    var issued: Int { state.withLock { $0.issued } }

    private static func answer(_ request: HTTPRequest, state: TestMutex<State>) -> TestTransport.Reply {
        if request.target == resourcePath {
            let token = request.headerFields["Authorization"].map { String($0.split(separator: " ").last ?? "") } ?? ""
            if state.withLock({ $0.refusedAccessTokens.contains(token) }) {
                return .json(401, #"{"error":"invalid_token"}"#, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#])
            }
            return .json(200, #"{"ok":true}"#)
        }
        let nonce = DPoPProofReader(request)?.payload["nonce"] as? String
        return state.withLock { state -> TestTransport.Reply in
            switch state.mode {
            case .refuseProofs:
                return .json(400, #"{"error":"invalid_dpop_proof","error_description":"the proof's signature does not verify"}"#)
            case .challengeEveryTime:
                state.nonceChallenges += 1
                let next = "nonce-\(state.nonceChallenges)-\(UUID().uuidString.prefix(6))"
                state.noncesIssued.append(next)
                return .json(400, #"{"error":"use_dpop_nonce"}"#, headers: ["DPoP-Nonce": next])
            case .dpop, .bearer:
                if let required = state.requiredNonce, nonce != required {
                    state.nonceChallenges += 1
                    return .json(400, #"{"error":"use_dpop_nonce"}"#, headers: ["DPoP-Nonce": required])
                }
                state.issued += 1
                let type = state.mode == .dpop ? "DPoP" : "Bearer"
                return .json(200, #"{"access_token":"at-\#(state.issued)","token_type":"\#(type)","expires_in":600,"#
                             + #""refresh_token":"rt-\#(state.issued)"}"#)
            }
        }
    }
}

/// A request's DPoP proof, read: its header and payload, and whether its signature verifies
/// under the key its `jwk` names (EdDSA, through libsodium).
struct DPoPProofReader {
    let compact: String
    let header: [String: Any]
    let payload: [String: Any]

    init?(_ request: HTTPRequest) {
        guard let proof = request.headerFields[DPoPProof.headerName] else { return nil }
        let parts = proof.split(separator: ".").map(String.init)
        guard parts.count == 3,
              let header = Base64URL.decode(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: Data($0)) }) as? [String: Any],
              let payload = Base64URL.decode(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: Data($0)) }) as? [String: Any]
        else { return nil }
        compact = proof
        self.header = header
        self.payload = payload
    }

    /// The thumbprint of the `jwk` the proof carries (an OKP or EC key).
    var jwkThumbprint: String? {
        guard let jwk = header["jwk"] as? [String: String], let crv = jwk["crv"], let x = jwk["x"].flatMap(Base64URL.decode) else {
            return nil
        }
        if jwk["kty"] == "OKP" { return DPoPPublicKey.okp(crv: crv, x: x).thumbprint }
        guard let y = jwk["y"].flatMap(Base64URL.decode) else { return nil }
        return DPoPPublicKey.ec(crv: crv, x: x, y: y).thumbprint
    }

    #if EncryptedTokenStore
    /// Whether the signature is the Ed25519 signature of the header and payload under the `jwk`.
    var signatureVerifies: Bool {
        let parts = compact.split(separator: ".").map(String.init)
        guard let jwk = header["jwk"] as? [String: String], jwk["kty"] == "OKP", let x = jwk["x"].flatMap(Base64URL.decode),
              let signature = Base64URL.decode(parts[2]) else { return false }
        return Ed25519.isValidSignature(signature, of: Array((parts[0] + "." + parts[1]).utf8), publicKey: x)
    }
    #endif
}

extension HTTPRequest {
    /// A form body's field `name`, for the refresh token a token request presented.
    func formField(_ name: String) -> String? {
        guard let body, let text = String(data: body, encoding: .utf8) else { return nil }
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0] == name { return parts[1].removingPercentEncoding }
        }
        return nil
    }
}
