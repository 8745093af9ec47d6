import AppSDKTesting
import Foundation
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

@Suite("ID tokens: each claim check of OpenID Connect Core §3.1.3.7")
struct IDTokenTests {
    let redirect = URL(string: "com.example.app:/callback")!

    /// Signs in through the callback flow with the ID token's claims changed by `change`.
    func signIn(changing change: @escaping @Sendable ([String: Any]) -> [String: Any]) async throws -> (SignInResult, InMemoryTokenStore) {
        let fake = try FakeOIDCServer()
        fake.configure { $0.idTokenClaims = change }
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let session = SessionService(server: fake.api, tokenStore: store, configuration: .oauth2(provider))
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        do {
            return (try await session.signIn(with: .callback(fake.approve(request.url), for: request, provider)), store)
        } catch {
            #expect(try await store.load() == nil, "nothing is stored when the ID token fails")
            throw error
        }
    }

    @Test("a token that passes every check gives its claims, and the session is stored under its sub")
    func valid() async throws {
        let (result, store) = try await signIn { $0 }
        #expect(result.idToken?.aud == [FakeOIDCServer.clientID])
        #expect(result.idToken?.nonce != nil)
        #expect(try await store.load()?.accountID == "user-42")
    }

    @Test("each failing claim is refused, naming the check", arguments: [
        ("iss", SignInError.IDTokenCheck.issuer),
        ("aud", .audience),
        ("azp", .authorizedParty),
        ("several audiences without azp", .authorizedParty),
        ("exp", .expiry),
        ("exp missing", .expiry),
        ("iat", .issuedAt),
        ("nonce", .nonce),
        ("nonce missing", .nonce),
        ("sub", .subject),
    ])
    func failingCheck(change: String, check: SignInError.IDTokenCheck) async throws {
        let error = try await #require(throws: SignInError.self) {
            try await signIn { claims in
                var claims = claims
                let now = claims["iat"] as! Int
                switch change {
                case "iss": claims["iss"] = "https://evil.example.test/o"
                case "aud": claims["aud"] = "another-client"
                case "azp": claims["azp"] = "another-client"
                case "several audiences without azp": claims["aud"] = [FakeOIDCServer.clientID, "another-client"]
                case "exp": claims["exp"] = now - 301
                case "exp missing": claims["exp"] = nil
                case "iat": claims["iat"] = now + 301
                case "nonce": claims["nonce"] = "a-nonce-from-another-request"
                case "nonce missing": claims["nonce"] = nil
                case "sub": claims["sub"] = nil
                default: Issue.record("unknown change \(change)")
                }
                return claims
            }
        }
        #expect(error == .idTokenInvalid(check))
        #expect(error.errorDescription?.contains("\(check) check") == true)
        #expect(error.errorDescription?.contains("a-nonce-from-another-request") == false)
    }

    @Test("within the clock skew, exp just past and iat just ahead are accepted; several audiences with azp = client are accepted")
    func withinLeeway() async throws {
        let (result, _) = try await signIn { claims in
            var claims = claims
            let now = claims["iat"] as! Int
            claims["exp"] = now - 299
            claims["iat"] = now + 299
            claims["aud"] = [FakeOIDCServer.clientID, "api"]
            claims["azp"] = FakeOIDCServer.clientID
            return claims
        }
        #expect(result.idToken?.aud == [FakeOIDCServer.clientID, "api"])
    }

    @Test("a token that is not a JWT with a JSON payload fails the format check", arguments: [
        "not-a-jwt", "a.b.c", "eyJhbGciOiJub25lIn0.WzEsMl0.sig",
    ])
    func format(token: String) async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        #expect(throws: SignInError.idTokenInvalid(.format)) {
            try IDTokenValidator.claims(of: token, provider: provider, nonce: nil)
        }
    }

    @Test("the claims' description shows sub, iss, aud and exp, never the nonce")
    func description() async throws {
        let (result, _) = try await signIn { $0 }
        let claims = try #require(result.idToken)
        let nonce = try #require(claims.nonce)
        for text in [String(describing: claims), String(reflecting: claims), { var out = ""; dump(claims, to: &out); return out }()] {
            #expect(text.contains("user-42"))
            #expect(!text.contains(nonce))
        }
    }

    /// Signs in through the callback flow with this device's clock `deviceOffset` seconds from
    /// the server's, the token answer carrying a `Date` header `dateOffset` from the server's
    /// clock (`nil`: none).
    func signIn(deviceOffset: TimeInterval, dateOffset: TimeInterval?) async throws -> SignInResult {
        let fake = try FakeOIDCServer()
        fake.configure { $0.dateHeaderOffset = dateOffset }
        var provider = try await fake.provider()
        let clock = fake.clock
        provider.clock = SignInClock(now: { clock.now.addingTimeInterval(deviceOffset) }, sleep: provider.clock.sleep)
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        return try await session.signIn(with: .callback(fake.approve(request.url), for: request, provider))
    }

    @Test("a device clock 10 minutes behind or 20 minutes ahead: iat and exp are read on the server's clock, from the token answer's Date header",
          arguments: [-600.0, 1200.0])
    func skewedDeviceClockIsCorrected(deviceOffset: Double) async throws {
        let result = try await signIn(deviceOffset: deviceOffset, dateOffset: 0)
        #expect(result.accountID == "user-42")
    }

    @Test("without a Date header, or with an absurd one (two days off), the same device clock fails the check it would fail anyway",
          arguments: [nil, 172_800.0])
    func noOrAbsurdDateChangesNothing(dateOffset: Double?) async throws {
        await #expect {
            _ = try await signIn(deviceOffset: -600, dateOffset: dateOffset)
        } throws: { error in
            (error as? SignInError)?.kind == SignInError.idTokenInvalid(.issuedAt).kind
        }
    }
}
