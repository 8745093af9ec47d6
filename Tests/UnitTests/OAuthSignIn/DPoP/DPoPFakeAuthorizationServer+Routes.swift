import AppSDKHarness
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
@testable import SessionEngine

extension DPoPFakeAuthorizationServer {
    /// The server's routes, holding the issuer and the state (not the server, which holds the fake).
    struct Routes: Sendable {
        let issuer: URL
        let state: TestMutex<State>

        static func nonce(_ serial: Int) -> String { "server-nonce-\(serial)-Zq8" }

        func install(on fake: FakeTokenServer) {
            let base = issuer.absoluteString
            let path = issuer.path
            fake.route(.get, path + "/.well-known/openid-configuration") { _ in
                state.withLock { state in
                    var document: [String: Any] = [
                        "issuer": base, "authorization_endpoint": base + "/auth", "token_endpoint": base + "/token",
                        "device_authorization_endpoint": base + "/device", "revocation_endpoint": base + "/revoke",
                        "userinfo_endpoint": base + "/userinfo", "code_challenge_methods_supported": ["S256"],
                        "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                    ]
                    if let algorithms = state.algorithms { document["dpop_signing_alg_values_supported"] = algorithms }
                    return .json(200, object: document)
                }
            }
            fake.route(.post, path + "/token") { token($0) }
            fake.route(.post, path + "/device") { request in
                state.withLock { state in
                    state.deviceCode = "device-code-secret-\(UUID().uuidString)"
                    state.deviceJKT = request.form["dpop_jkt"]
                    state.secrets.append(state.deviceCode)
                    return .json(200, object: ["device_code": state.deviceCode, "user_code": "WDJB-MJHT",
                                               "verification_uri": base + "/device-page", "interval": 1, "expires_in": 600])
                }
            }
            fake.route(.post, path + "/revoke") { request in
                state.withLock { state in
                    state.revoked.append((request.form["token"] ?? "", request.header("DPoP") != nil))
                    return .status(200)
                }
            }
            fake.route(.get, path + "/userinfo") { userinfo($0) }
        }

        // MARK: Proofs

        /// The proof of `request` checked as glewlwyd checks it, or the refusal to answer with.
        private func checkProof(_ request: FakeTokenServer.Request, htu: String, accessToken: String?,
                                _ state: inout State, status: Int) -> Result<ReceivedDPoPProof?, Refusal> {
            guard let compact = request.header("DPoP") else { return .success(nil) }
            state.secrets.append(compact)
            guard let proof = ReceivedDPoPProof(compact), proof.typ == "dpop+jwt", proof.alg == "EdDSA", proof.signatureVerifies,
                  !proof.jwkHasPrivatePart, proof.htm == request.method, proof.htu == htu,
                  let iat = proof.iat, abs(iat - Date().timeIntervalSince1970) <= 60,
                  let jti = proof.jti, state.jtis.insert(jti).inserted else {
                return .failure(refusal(status, "invalid_dpop_proof", request, state))
            }
            if let accessToken, proof.ath != Base64URL.encode(SHA256.hash(Array(accessToken.utf8))) {
                return .failure(refusal(status, "invalid_dpop_proof", request, state))
            }
            if state.challengesEveryProof || (state.requiresNonce && proof.nonce != Self.nonce(state.nonceSerial)) {
                let nonce = state.challengeNonceOverride ?? Self.nonce(state.nonceSerial)
                state.secrets.append(nonce)
                return .failure(Refusal(status: accessToken == nil ? 400 : 401, code: "use_dpop_nonce", nonce: nonce,
                                        description: description(request, state)))
            }
            return .success(proof)
        }

        struct Refusal: Error {
            var status: Int
            var code: String
            var nonce: String?
            var description: String

            /// At the token endpoint, RFC 6749 §5.2 JSON; at userinfo, a `DPoP` challenge too.
            func reply(challenge: Bool) -> FakeTokenServer.Reply {
                var headers: [String: String] = [:]
                if let nonce { headers["DPoP-Nonce"] = nonce }
                if challenge { headers["WWW-Authenticate"] = #"DPoP error="\#(code)", algs="ES256 EdDSA""# }
                let body = (try? JSONSerialization.data(withJSONObject: ["error": code, "error_description": description])) ?? Data()
                return .json(status, String(decoding: body, as: UTF8.self), headers: headers)
            }
        }

        private func refusal(_ status: Int, _ code: String, _ request: FakeTokenServer.Request, _ state: State) -> Refusal {
            Refusal(status: status, code: code, nonce: nil, description: description(request, state))
        }

        /// What an error says: a hostile server's echoes of the proof and nonce, or a plain sentence.
        private func description(_ request: FakeTokenServer.Request, _ state: State) -> String {
            guard state.echoesIntoErrors else { return "The request was refused" }
            return "refused proof \(request.header("DPoP") ?? "") with nonce \(state.challengeNonceOverride ?? Self.nonce(state.nonceSerial))"
        }

        // MARK: Endpoints

        private func token(_ request: FakeTokenServer.Request) -> FakeTokenServer.Reply {
            let form = request.form
            return state.withLock { state in
                let proof: ReceivedDPoPProof?
                switch checkProof(request, htu: issuer.absoluteString + "/token", accessToken: nil, &state, status: 403) {
                case let .failure(refusal): return refusal.reply(challenge: false)
                case let .success(checked): proof = checked
                }
                let jkt = proof?.thumbprint
                switch form["grant_type"] {
                case "authorization_code":
                    guard let code = form["code"], let issued = state.codes[code], form["redirect_uri"] == issued.redirectURI,
                          let verifier = form["code_verifier"], PKCE.challenge(of: verifier) == issued.challenge else {
                        return .json(400, #"{"error":"invalid_grant"}"#)
                    }
                    // glewlwyd: a code bound by dpop_jkt stays usable with the right key.
                    if let bound = issued.jkt, bound != jkt { return refusal(403, "invalid_dpop_proof", request, state).reply(challenge: false) }
                    state.codes[code] = nil
                    let token = issued.idTokenNonce.map { makeIDToken(nonce: $0, clientID: issued.clientID) }
                    return issue(&state, jkt: jkt, refresh: true, idToken: token)
                case "refresh_token":
                    guard let token = form["refresh_token"], let issued = state.refreshTokens[token], !issued.used else {
                        return .json(400, #"{"error":"invalid_grant"}"#)
                    }
                    // Bound: only its key's proof; bearer: no proof at all (glewlwyd's 403).
                    guard issued.jkt == jkt else { return refusal(403, "invalid_dpop_proof", request, state).reply(challenge: false) }
                    state.refreshTokens[token]?.used = true
                    return issue(&state, jkt: jkt, refresh: true)
                case "urn:ietf:params:oauth:grant-type:device_code":
                    guard form["device_code"] == state.deviceCode else { return .json(400, #"{"error":"invalid_grant"}"#) }
                    if let bound = state.deviceJKT, bound != jkt { return refusal(403, "invalid_dpop_proof", request, state).reply(challenge: false) }
                    state.deviceCode = ""
                    return issue(&state, jkt: jkt, refresh: true)
                case "client_credentials":
                    let expected = "Basic " + Data("\(DPoPFakeAuthorizationServer.confidentialClientID):\(DPoPFakeAuthorizationServer.clientSecret)".utf8)
                        .base64EncodedString()
                    guard request.header("Authorization") == expected else { return .json(401, #"{"error":"invalid_client"}"#) }
                    return issue(&state, jkt: jkt, refresh: false)
                default:
                    return .json(400, #"{"error":"unsupported_grant_type"}"#)
                }
            }
        }

        /// An ID token for user-42 (OpenID Connect Core §2), its signature not checked by the SDK.
        private func makeIDToken(nonce: String, clientID: String) -> String {
            let now = Int(Date().timeIntervalSince1970)
            let claims: [String: Any] = ["iss": issuer.absoluteString, "aud": clientID, "sub": "user-42", "iat": now,
                                         "exp": now + 300, "nonce": nonce]
            let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
            let payload = Base64URL.encode(Array((try? JSONSerialization.data(withJSONObject: claims)) ?? Data()))
            return header + "." + payload + ".c2lnbmF0dXJl"
        }

        private func issue(_ state: inout State, jkt: String?, refresh: Bool, idToken: String? = nil) -> FakeTokenServer.Reply {
            state.serial += 1
            let access = "access-token-\(state.serial)-\(UUID().uuidString)"
            // A server that answers a proof with a bearer token did not bind the access token.
            state.accessTokens[access] = state.tokenTypeOverride.map(TokenSyntax.isDPoP) == false ? nil : jkt
            state.secrets.append(access)
            var reply: [String: Any] = ["access_token": access, "token_type": state.tokenTypeOverride ?? (jkt == nil ? "bearer" : "DPoP"),
                                        "expires_in": state.expiresIn, "scope": "profile"]
            if let idToken { reply["id_token"] = idToken }
            if refresh {
                let token = "refresh-token-\(state.serial)-\(UUID().uuidString)"
                state.refreshTokens[token] = (jkt, false)
                state.secrets.append(token)
                reply["refresh_token"] = token
            }
            // As glewlwyd rotates (here after every accepted proof): the next nonce comes on the 200.
            var headers: [String: String] = [:]
            if state.requiresNonce, jkt != nil {
                state.nonceSerial += 1
                headers["DPoP-Nonce"] = Self.nonce(state.nonceSerial)
                state.secrets.append(Self.nonce(state.nonceSerial))
            }
            return .json(200, object: reply, headers: headers)
        }

        private func userinfo(_ request: FakeTokenServer.Request) -> FakeTokenServer.Reply {
            state.withLock { state in
                let header = request.header("Authorization") ?? ""
                if header.hasPrefix("DPoP ") {
                    let token = String(header.dropFirst(5))
                    guard let bound = state.accessTokens[token], bound != nil else { return .status(401) }
                    switch checkProof(request, htu: issuer.absoluteString + "/userinfo", accessToken: token, &state, status: 401) {
                    case let .failure(refusal): return refusal.reply(challenge: true)
                    case .success(nil): return .status(401)
                    case .success: return .json(200, object: ["sub": "user-42"])
                    }
                }
                guard header.hasPrefix("Bearer "), let bound = state.accessTokens[String(header.dropFirst(7))], bound == nil else {
                    return .status(401)   // unknown, or a bound token sent as Bearer
                }
                return .json(200, object: ["sub": "user-42"])
            }
        }
    }
}
