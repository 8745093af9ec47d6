import AppRepository
import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 33, item 11: a JWT access token's `exp` (or `iat`) past the year 4001 is no time a
/// server means; it is read as absent, and a session started with it stores no absurd expiry.
@Suite("A JWT's absurd exp and iat are read as absent")
struct JWTTimeBoundsTests {
    private func jwt(_ claims: String) -> String {
        "eyJhbGciOiJub25lIn0." + Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_") + ".c2ln"
    }

    @Test("exp of 1e19, 1e300 or 9.3e18 (2^63): no expiry; iat alike; a plausible exp is read",
          arguments: ["1e19", "1e300", "9223372036854775808", "-1e300"])
    func absurdExp(_ exp: String) throws {
        let claims = try #require(UnverifiedJWT(jwt(#"{"sub":"kim","exp":\#(exp),"iat":\#(exp)}"#)))
        #expect(claims.expiresAt == nil)
        #expect(claims.issuedAt == nil)
        #expect(claims.lifetime == nil)
        #expect(claims.subject == "kim")
    }

    @Test("the latest exp read is Date.distantFuture's; one second later is not")
    func bound() throws {
        let latest = Int(Date.distantFuture.timeIntervalSince1970)
        #expect(try #require(UnverifiedJWT(jwt(#"{"exp":\#(latest)}"#))).expiresAt == .distantFuture)
        #expect(try #require(UnverifiedJWT(jwt(#"{"exp":\#(latest + 1)}"#))).expiresAt == nil)
        #expect(try #require(UnverifiedJWT(jwt(#"{"exp":1795860300}"#))).expiresAt == Date(timeIntervalSince1970: 1_795_860_300))
    }

    @Test("a session started with a JWT whose exp is 1e19 and no expires_in stores no expiry, and counting seconds to it cannot trap")
    func sessionWithAbsurdExp() async throws {
        let store = InMemoryTokenStore()
        let service = RepositoryService(server: try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .status(500))),
                                        tokenStore: store, configuration: .json(JSONTokenRefresh(path: "/refresh")))
        try await service.startSession(tokens: Tokens(accessToken: AccessToken(jwt(#"{"sub":"kim","exp":1e19}"#)), refreshToken: "r"))
        let stored = try #require(try await store.load())
        #expect(stored.accountID == "kim")
        if let expiry = stored.accessTokenExpiresAt {
            #expect(abs(Int(expiry.timeIntervalSinceNow.rounded())) < 70_000_000_000)
        }
    }
}
