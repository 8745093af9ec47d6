import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

@Suite("Access and refresh tokens")
struct TokenTests {
    @Test("refresh rotates: new pair, the new access token works, the old refresh token is spent")
    func rotation() async throws {
        try await TestServer.run { api in
            let session = try await api.signUp("ivy@example.com")
            let response = try await api.refresh(session.tokens.refreshToken)
            #expect(response.status == .ok)
            let tokens = try response.decode(RefreshResultDTO.self).tokens
            #expect(tokens.refreshToken != session.tokens.refreshToken)
            #expect(try await api.send(.get, "/v1/members/me", token: tokens.accessToken).status == .ok)
            let again = try await api.refresh(tokens.refreshToken)
            #expect(again.status == .ok)
        }
    }

    @Test("reusing a spent refresh token whose child was used revokes the whole family")
    func reuseRevokesFamily() async throws {
        try await TestServer.run { api in
            let session = try await api.signUp("jack@example.com")
            let unrelated = try await api.signIn("jack@example.com", password: "password-1")
            let rotated = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            // The child is used: presenting its parent again cannot be the retry of a lost response,
            // even within the reuse grace period.
            let newest = try await api.refresh(rotated.refreshToken).decode(RefreshResultDTO.self).tokens

            let reuse = try await api.refresh(session.tokens.refreshToken)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_reused")

            // The family's newest refresh token and its access tokens die with it.
            let next = try await api.refresh(newest.refreshToken)
            #expect(next.status == .unauthorized)
            #expect(next.errorCode == "invalid_refresh_token")
            for token in [newest.accessToken, rotated.accessToken, session.tokens.accessToken] {
                let me = try await api.send(.get, "/v1/members/me", token: token)
                #expect(me.status == .unauthorized)
                #expect(me.errorCode == "invalid_token")
            }
            // Another family of the same member lives on.
            #expect(try await api.send(.get, "/v1/members/me", token: unrelated.tokens.accessToken).status == .ok)
            #expect(try await api.refresh(unrelated.tokens.refreshToken).status == .ok)
        }
    }

    @Test("an unknown refresh token gets invalid_refresh_token; a missing one gets invalid_request")
    func unknownRefreshToken() async throws {
        try await TestServer.run { api in
            let unknown = try await api.refresh(RandomToken.make())
            #expect(unknown.status == .unauthorized)
            #expect(unknown.errorCode == "invalid_refresh_token")
            let missing = try await api.send(.post, "/v1/auth/refresh", json: "{}")
            #expect(missing.status == .badRequest)
            #expect(missing.errorMessage?.contains("refreshToken") == true)
        }
    }

    @Test("an access token expires after its lifetime: 401 token_expired with WWW-Authenticate")
    func accessTokenExpiry() async throws {
        let clock = TestClock()
        try await TestServer.run(configuration: TestServer.configuration(accessTokenLifetime: 60), clock: clock) { api in
            let session = try await api.signUp("kate@example.com")
            #expect(session.tokens.expiresIn == 60)
            clock.advance(by: 59)
            #expect(try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken).status == .ok)
            clock.advance(by: 1)
            let expired = try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorCode == "token_expired")
            #expect(expired.headers[.wwwAuthenticate]?.hasPrefix(#"Bearer error="invalid_token""#) == true)
            // The refresh token still works and brings a fresh access token.
            let tokens = try await api.refresh(session.tokens.refreshToken).decode(RefreshResultDTO.self).tokens
            #expect(try await api.send(.get, "/v1/members/me", token: tokens.accessToken).status == .ok)
        }
    }

    @Test("a refresh token expires after its lifetime")
    func refreshTokenExpiry() async throws {
        let clock = TestClock()
        try await TestServer.run(configuration: TestServer.configuration(refreshTokenLifetime: 120), clock: clock) { api in
            let session = try await api.signUp("liam@example.com")
            clock.advance(by: 121)
            let response = try await api.refresh(session.tokens.refreshToken)
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_refresh_token")
        }
    }

    @Test("tokens with alg none, another key, another HMAC size, an edited payload or garbage are invalid_token")
    func forgedTokens() async throws {
        try await TestServer.run { api in
            let session = try await api.signUp("mia@example.com")
            let genuine = session.tokens.accessToken
            let parts = genuine.split(separator: ".").map(String.init)
            let claims = try JSONDecoder().decode(AccessTokenClaims.self, from: try #require(Base64URL.decode(parts[1])))

            func encode(_ json: some Encodable) throws -> String { Base64URL.encode(try JSONEncoder().encode(json)) }

            // alg: none, no signature.
            let none = try encode(["alg": "none", "typ": "JWT"]) + "." + parts[1] + "."
            // Signed with another key.
            let otherKeys = await JWTKeyCollection().add(hmac: HMACKey(from: "another-secret-another-secret-0123456789"), digestAlgorithm: .sha256)
            let otherKey = try await otherKeys.sign(claims)
            // HS512 with the server's own secret: right key, wrong algorithm.
            let hs512Keys = await JWTKeyCollection().add(hmac: HMACKey(from: TestServer.secret), digestAlgorithm: .sha512)
            let hs512 = try await hs512Keys.sign(claims)
            // The payload's exp pushed a year ahead, keeping the original signature.
            var extended = claims
            extended.exp += 365 * 24 * 3600
            let edited = parts[0] + "." + (try encode(extended)) + "." + parts[2]

            for token in [none, otherKey, hs512, edited, "garbage", "a.b.c", parts[0] + "." + parts[1]] {
                let response = try await api.send(.get, "/v1/members/me", token: token)
                #expect(response.status == .unauthorized, "\(token)")
                #expect(response.errorCode == "invalid_token", "\(token)")
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            }
            // The genuine token still works.
            #expect(try await api.send(.get, "/v1/members/me", token: genuine).status == .ok)
        }
    }

    @Test("the verifier rejects alg none, wrong keys and edited payloads directly")
    func verifierUnit() async throws {
        let clock = TestClock()
        let tokens = await AccessTokens(secret: TestServer.secret, lifetime: .seconds(60), clock: clock.timeSource)
        let issued = try await tokens.issue(memberID: UUID(), sessionID: "s", role: .member)
        #expect(try await tokens.verify(issued.token).sid == "s")

        let parts = issued.token.split(separator: ".").map(String.init)
        let noneHeader = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
        await #expect(throws: AccessTokenError.unsupportedAlgorithm) { try await tokens.verify(noneHeader + "." + parts[1] + ".") }
        let other = await AccessTokens(secret: String(TestServer.secret.reversed()), lifetime: .seconds(60), clock: clock.timeSource)
        await #expect(throws: AccessTokenError.badSignature) { try await other.verify(issued.token) }
        clock.advance(by: 60)
        await #expect(throws: AccessTokenError.expired) { try await tokens.verify(issued.token) }
    }

    @Test("a request without Authorization gets 401 invalid_token with a bare WWW-Authenticate: Bearer")
    func missingToken() async throws {
        try await TestServer.run { api in
            let response = try await api.send(.get, "/v1/questions/today")
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_token")
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
        }
    }
}
