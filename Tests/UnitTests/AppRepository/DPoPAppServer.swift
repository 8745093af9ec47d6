#if EncryptedTokenStore
import AppRepository
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import TokenStore

/// The app's server speaking DPoP as the reference server does (Server/README.md, "DPoP"), for
/// RepositoryService tests through a ``TestTransport``: a sign-in with a valid proof binds the
/// family to the key's thumbprint and answers `"tokenType":"DPoP"`; a bound refresh token
/// needs a proof by that key (401 `invalid_dpop_proof` otherwise, nothing written); a bound
/// access token is accepted only as `DPoP` with a proof by its key whose `ath` is its hash.
/// Optionally every proof must carry the current nonce (400 or 401 `use_dpop_nonce` with a new
/// `DPoP-Nonce`). Each instance has a host of its own, so one test's nonces never reach another.
final class DPoPAppServer: Sendable {
    struct State: Sendable {
        /// access token → the thumbprint it is bound to (`nil`: a bearer token).
        var accessTokens: [String: String?] = [:]
        /// refresh token → (bound thumbprint, used).
        var refreshTokens: [String: (jkt: String?, used: Bool)] = [:]
        var serial = 0
        /// The nonce proofs must carry; `nil`: none needed.
        var nonce: String?
        var nonceChallenges = 0
        /// Answer every sign-in with a bearer token, as a server that does not bind tokens.
        var answersBearer = false
        /// Answer `"tokenType":"DPoP"` to every sign-in and refresh, proved or not (a broken server).
        var answersDPoPAlways = false
        /// Successful refreshes per thumbprint.
        var refreshesByJKT: [String: Int] = [:]
    }

    static let memberID = "3B4C5D6E-7F80-4192-A3B4-C5D6E7F80912"
    let state = TestMutex(State())
    let transport = TestTransport()
    let baseURL = "https://app-\(UUID().uuidString.prefix(8).lowercased()).example.test"

    init() {
        transport.serve { [state, baseURL] request in Self.answer(request, state: state, baseURL: baseURL) }
    }

    var server: Server { get throws { try Server(baseURL: baseURL, transport: transport) } }

    /// A RepositoryService on this server (the `.appAPI` preset), binding sign-ins to EdDSA
    /// keys when `dpop`.
    func service(store: any TokenStore, dpop: DPoPConfiguration? = DPoPConfiguration(keys: .eddsa)) throws -> RepositoryService {
        var configuration = SessionService.Configuration.appAPI
        configuration.dpop = dpop
        return RepositoryService(server: try server, tokenStore: store, configuration: configuration)
    }

    func set(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }
    /// Makes every access token issued so far stop working (401 `invalid_token`).
    func expireAccessTokens() { state.withLock { $0.accessTokens.removeAll() } }
    var requests: [HTTPRequest] { transport.requests }
    func requests(to target: String) -> [HTTPRequest] { transport.requests.filter { $0.target == target } }
    var nonceChallenges: Int { state.withLock { $0.nonceChallenges } }
    var refreshesByJKT: [String: Int] { state.withLock { $0.refreshesByJKT } }

    // MARK: Answers

    private static func answer(_ request: HTTPRequest, state: TestMutex<State>, baseURL: String) -> TestTransport.Reply {
        let target = request.target
        let proof = DPoPProofReader(request)
        let isTokenRoute = ["/v1/auth/sign-in", "/v1/auth/sign-up", "/v1/auth/anonymous", "/v1/auth/refresh"].contains(target)
        // The proof, when there is one, is checked first (before any token logic).
        var jkt: String?
        if let proof {
            guard proof.signatureVerifies, proof.header["typ"] as? String == "dpop+jwt",
                  proof.payload["htm"] as? String == request.method.rawValue,
                  proof.payload["htu"] as? String == baseURL + target else {
                return refusal(isTokenRoute, "invalid_dpop_proof")
            }
            let required = state.withLock { $0.nonce }
            if let required, proof.payload["nonce"] as? String != required {
                return state.withLock { state in
                    state.nonceChallenges += 1
                    return refusal(isTokenRoute, "use_dpop_nonce", nonce: required)
                }
            }
            jkt = proof.jwkThumbprint
        }
        let nonceHeader = state.withLock { $0.nonce }.map { ["DPoP-Nonce": $0] } ?? [:]
        switch target {
        case "/v1/auth/sign-in", "/v1/auth/sign-up", "/v1/auth/anonymous":
            return state.withLock { state in
                let bound = state.answersBearer ? nil : jkt
                let tokens = issue(&state, jkt: bound)
                return .json(200, #"{"member":\#(memberJSON),"tokens":\#(tokens)}"#, headers: nonceHeader)
            }
        case "/v1/auth/refresh":
            let presented = request.jsonBody?["refreshToken"] as? String ?? ""
            return state.withLock { state in
                guard let entry = state.refreshTokens[presented] else {
                    return .json(401, #"{"error":{"code":"invalid_refresh_token","message":"unknown"}}"#, headers: nonceHeader)
                }
                if let bound = entry.jkt, bound != jkt {
                    return .json(401, #"{"error":{"code":"invalid_dpop_proof","message":"not the family's key"}}"#, headers: nonceHeader)
                }
                guard !entry.used else {
                    return .json(401, #"{"error":{"code":"refresh_token_reused","message":"reused"}}"#, headers: nonceHeader)
                }
                state.refreshTokens[presented]?.used = true
                if let bound = entry.jkt { state.refreshesByJKT[bound, default: 0] += 1 }
                return .json(200, #"{"tokens":\#(issue(&state, jkt: entry.jkt))}"#, headers: nonceHeader)
            }
        default:
            let authorization = request.headerFields["Authorization"] ?? ""
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let binding = state.withLock({ $0.accessTokens[parts[1]] }) else {
                return unauthorized("invalid_token")
            }
            if let bound = binding {
                guard parts[0] == "DPoP", let proof, jkt == bound,
                      proof.payload["ath"] as? String == DPoPProof.ath(of: AccessToken(parts[1])) else {
                    return unauthorized(parts[0] == "DPoP" ? "invalid_dpop_proof" : "invalid_token")
                }
            } else if parts[0] != "Bearer" {
                return unauthorized("invalid_token")
            }
            switch (request.method, target) {
            case (.get, "/v1/members/me"): return .json(200, memberJSON, headers: nonceHeader)
            case (.post, "/v1/auth/sign-out"): return .status(204)
            default: return .json(404, #"{"error":{"code":"not_found","message":"no route"}}"#)
            }
        }
    }

    private static func issue(_ state: inout State, jkt: String?) -> String {
        state.serial += 1
        let access = "at-\(state.serial)", refresh = "rt-\(state.serial)"
        state.accessTokens[access] = .some(jkt)
        state.refreshTokens[refresh] = (jkt, false)
        let type = jkt != nil || state.answersDPoPAlways ? "DPoP" : "Bearer"
        return #"{"accessToken":"\#(access)","refreshToken":"\#(refresh)","tokenType":"\#(type)","expiresIn":900}"#
    }

    private static func refusal(_ tokenRoute: Bool, _ code: String, nonce: String? = nil) -> TestTransport.Reply {
        let body = #"{"error":{"code":"\#(code)","message":"the proof was refused"}}"#
        var headers = nonce.map { ["DPoP-Nonce": $0] } ?? [:]
        if tokenRoute { return .json(400, body, headers: headers) }
        headers["WWW-Authenticate"] = #"DPoP error="\#(code)""#
        return .json(401, body, headers: headers)
    }

    private static func unauthorized(_ code: String) -> TestTransport.Reply {
        .json(401, #"{"error":{"code":"\#(code)","message":"refused"}}"#, headers: ["WWW-Authenticate": #"DPoP error="\#(code)""#])
    }

    private static let memberJSON =
        #"{"id":"\#(memberID)","nickname":"kim","email":"kim@example.com","role":"member","createdAt":"2026-11-22T10:00:00Z"}"#
}
#endif
