import AppSDKHarness
import AppSDKTesting
import Foundation
@testable import OAuthSignIn

extension FakeOIDCServer {
    /// What the provider and its API answer, as routes of a ``FakeTokenServer``: each holds the
    /// issuer, the clock and the state, not the ``FakeOIDCServer`` (which holds the fake).
    struct Routes: Sendable {
        let issuer: URL
        let clock: TestClock
        let state: TestMutex<State>

        /// Installs every route on `fake`: the provider's on the issuer's origin, `GET /me` on the API's.
        func install(on fake: FakeTokenServer) {
            let base = issuer.path
            let origin = issuer.absoluteString.replacingOccurrences(of: issuer.path, with: "")
            fake.route(.get, base + "/.well-known/openid-configuration", origin: origin) { _ in
                state.withLock { state in
                    if state.openIDConfigurationMissing { return .status(404) }
                    return state.discoveryOverride ?? .json(200, object: state.document)
                }
            }
            fake.route(.get, "/.well-known/oauth-authorization-server" + base, origin: origin) { _ in
                state.withLock { state in
                    state.openIDConfigurationMissing ? (state.discoveryOverride ?? .json(200, object: state.document)) : .status(404)
                }
            }
            fake.route(.post, base + "/token/", origin: origin) { token($0) }
            fake.route(.post, base + "/device-authorization/", origin: origin) { _ in deviceAuthorization() }
            fake.route(.post, base + "/revoke_token/", origin: origin) { request in
                state.withLock { $0.revoked.append(request.form["token"] ?? "") }
                return .status(200)
            }
            fake.route(.get, base + "/userinfo/", origin: origin) { request in
                state.withLock { state in
                    guard let subject = subject(of: request, state) else { return Self.invalidToken }
                    return .json(200, object: ["sub": subject, "email": "kim@example.test", "email_verified": true])
                }
            }
            fake.route(.get, "/me", origin: FakeOIDCServer.apiOrigin) { request in
                state.withLock { state in
                    guard let subject = subject(of: request, state) else {
                        state.apiUnauthorized += 1
                        return Self.invalidToken
                    }
                    return .json(200, object: ["username": subject])
                }
            }
        }

        private static let invalidToken = FakeTokenServer.Reply.respond(
            status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#], body: Data())

        private func deviceAuthorization() -> FakeTokenServer.Reply {
            let base = issuer.absoluteString
            return state.withLock { state in
                state.deviceCode = "device-code-secret-\(UUID().uuidString)"
                state.secrets.append(state.deviceCode)
                var reply: [String: Any] = ["device_code": state.deviceCode, "user_code": FakeOIDCServer.userCode,
                                            "verification_uri": base + "/device/",
                                            "verification_uri_complete": base + "/device/?user_code=\(FakeOIDCServer.userCode)"]
                if let interval = state.deviceInterval { reply["interval"] = interval }
                if let expiresIn = state.deviceExpiresIn { reply["expires_in"] = expiresIn }
                return .json(200, object: reply)
            }
        }

        private func subject(of request: FakeTokenServer.Request, _ state: State) -> String? {
            guard let header = request.header("Authorization"), header.hasPrefix("Bearer "),
                  let token = state.accessTokens[String(header.dropFirst(7))], token.expires > clock.now else { return nil }
            return token.subject
        }

        private func token(_ request: FakeTokenServer.Request) -> FakeTokenServer.Reply {
            let latency = state.withLock { $0.tokenLatency }
            clock.advance(by: latency / 2)
            defer { clock.advance(by: latency / 2) }
            let form = request.form
            return state.withLock { state in
                state.tokenRequests += 1
                switch form["grant_type"] {
                case "authorization_code":
                    guard let code = form["code"], let issued = state.codes.removeValue(forKey: code),
                          form["client_id"] == issued.clientID, form["redirect_uri"] == issued.redirectURI,
                          let verifier = form["code_verifier"], PKCE.challenge(of: verifier) == issued.challenge else {
                        return .json(400, #"{"error":"invalid_grant","error_description":"Invalid code or verifier"}"#)
                    }
                    return issue(&state, subject: "user-42", clientID: issued.clientID, nonce: issued.nonce, refresh: true)
                case "refresh_token":
                    guard let token = form["refresh_token"], state.refreshTokens[token] == false else {
                        return .json(400, #"{"error":"invalid_grant"}"#)
                    }
                    state.refreshTokens[token] = true
                    return issue(&state, subject: "user-42", clientID: FakeOIDCServer.clientID, nonce: nil, refresh: true,
                                 idToken: false)
                case "urn:ietf:params:oauth:grant-type:device_code":
                    state.devicePollTimes.append(clock.now)
                    guard form["device_code"] == state.deviceCode else { return .json(400, #"{"error":"invalid_grant"}"#) }
                    let answer = state.devicePolls.isEmpty ? "authorization_pending" : state.devicePolls.removeFirst()
                    guard answer == "approve" else { return .json(400, #"{"error":"\#(answer)"}"#) }
                    return issue(&state, subject: "user-42", clientID: FakeOIDCServer.clientID, nonce: nil, refresh: true)
                case "client_credentials":
                    guard request.header("Authorization") == FakeOIDCServer.confidentialAuthorization else {
                        return .json(401, #"{"error":"invalid_client"}"#)
                    }
                    state.clientCredentialsGrants += 1
                    return issue(&state, subject: FakeOIDCServer.confidentialClientID, clientID: FakeOIDCServer.confidentialClientID,
                                 nonce: nil, refresh: false, idToken: false)
                default:
                    return .json(400, #"{"error":"unsupported_grant_type"}"#)
                }
            }
        }

        private func issue(_ state: inout State, subject: String, clientID: String, nonce: String?, refresh: Bool,
                           idToken: Bool = true) -> FakeTokenServer.Reply {
            state.serial += 1
            let access = "access-token-\(state.serial)-\(UUID().uuidString)"
            state.accessTokens[access] = (subject, clock.now.addingTimeInterval(state.lifetime))
            state.secrets.append(access)
            var reply: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": Int(state.lifetime),
                                        "scope": "openid profile"]
            if refresh {
                let token = "refresh-token-\(state.serial)-\(UUID().uuidString)"
                state.refreshTokens[token] = false
                state.secrets.append(token)
                reply["refresh_token"] = token
            }
            if idToken, state.sendsIDToken {
                let now = clock.now.timeIntervalSince1970
                var claims: [String: Any] = ["iss": issuer.absoluteString, "aud": clientID, "sub": subject,
                                             "exp": Int(now) + 600, "iat": Int(now), "email": "kim@example.test"]
                if let nonce { claims["nonce"] = nonce }
                let token = Self.jwt(state.idTokenClaims(claims))
                state.secrets.append(token)
                reply["id_token"] = token
            }
            let date = state.dateHeaderOffset.map { ["Date": Self.httpDate(clock.now.addingTimeInterval($0))] }
            return .json(200, object: reply, headers: date ?? [:])
        }

        /// An unsigned JWT with `claims` (the signature part is junk: the SDK does not verify it).
        private static func jwt(_ claims: [String: Any]) -> String {
            let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
            return FakeTokenServer.jwt(header: "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ",
                                       claims: String(decoding: payload, as: UTF8.self), signature: "c2lnbmF0dXJl")
        }

        /// An IMF-fixdate, as a `Date` header writes it.
        private static func httpDate(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: date)
        }
    }
}
