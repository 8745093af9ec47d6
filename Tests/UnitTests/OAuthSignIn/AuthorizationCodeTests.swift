import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

@Suite("The authorization code flow with PKCE, for a redirect the app receives itself")
struct AuthorizationCodeTests {
    let redirect = URL(string: "com.example.app:/oauth/callback")!

    func makeSession(_ fake: FakeOIDCServer, _ provider: OAuthProvider, store: any TokenStore = InMemoryTokenStore()) -> SessionService {
        var configuration = SessionService.Configuration.oauth2(provider)
        let clock = fake.clock
        configuration.now = { clock.now }
        return SessionService(server: fake.api, tokenStore: store, configuration: configuration)
    }

    @Test("SHA-256 gives the FIPS 180-4 digests, and S256 the challenge of RFC 7636 Appendix B")
    func sha256() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(PKCE.challenge(of: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("the authorization URL carries response_type=code, client_id, redirect_uri, scope, state, the S256 challenge of the verifier and a nonce for openid")
    func authorizationURL() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid", "profile"])
        let query = FakeOIDCServer.query(of: request.url)
        #expect(request.url.absoluteString.hasPrefix(fake.issuer.absoluteString + "/authorize/?"))
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == FakeOIDCServer.clientID)
        #expect(query["redirect_uri"] == redirect.absoluteString)
        #expect(query["scope"] == "openid profile")
        #expect(query["state"] == request.state)
        #expect(query["nonce"] == request.nonce)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"] == PKCE.challenge(of: request.codeVerifier))
        #expect(request.codeVerifier.count == 43)
        #expect(request.state.count == 43 && request.nonce?.count == 43)
        #expect(request.url.absoluteString.contains("scope=openid%20profile"))
        // Fresh values every time, and no nonce without openid.
        let other = try provider.authorizationRequest(redirectURI: redirect, scopes: ["read"])
        #expect(other.state != request.state && other.codeVerifier != request.codeVerifier)
        #expect(other.nonce == nil && FakeOIDCServer.query(of: other.url)["nonce"] == nil)
    }

    @Test("an approved callback is exchanged with the verifier and the redirect URI, and starts the session as the ID token's sub")
    func approvedCallback() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let session = makeSession(fake, provider, store: store)
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid", "profile"])
        let result = try await session.signIn(with: .callback(fake.approve(request.url), for: request, provider))
        #expect(result.accountID == "user-42")
        #expect(result.idToken?.sub == "user-42")
        #expect(result.idToken?["email"]?.string == "kim@example.test")
        #expect(result.scope == "openid profile")
        #expect(try await store.load()?.accountID == "user-42")
        let exchange = try #require(fake.requests.last { FakeOIDCServer.form(of: $0)["grant_type"] == "authorization_code" })
        let form = FakeOIDCServer.form(of: exchange)
        #expect(form["code_verifier"] == request.codeVerifier)
        #expect(form["redirect_uri"] == redirect.absoluteString)
        #expect(form["client_id"] == FakeOIDCServer.clientID)
        #expect(exchange.value(forHeaderField: "Authorization") == nil)
        let me: FakeMe = try await session.request { server, token in try await server.send(FakeMeEndpoint(), accessToken: token) }
        #expect(me == FakeMe(username: "user-42"))
    }

    @Test("a callback whose state is not the request's is refused with stateMismatch, before its code is used",
          arguments: ["tampered", nil])
    func stateMismatch(state: String?) async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        var items = FakeOIDCServer.query(of: fake.approve(request.url))
        items["state"] = state
        let callback = FakeOIDCServer.callback(redirect.absoluteString, items)
        let error = try await #require(throws: SignInError.self) {
            try await makeSession(fake, provider, store: store).signIn(with: .callback(callback, for: request, provider))
        }
        #expect(error == .stateMismatch)
        #expect(fake.state.withLock { $0.tokenRequests } == 0)
        #expect(try await store.load() == nil)
    }

    @Test("error=access_denied is refused with accessDenied, and nothing is stored")
    func denied() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        let error = try await #require(throws: SignInError.self) {
            try await makeSession(fake, provider, store: store).signIn(with: .callback(fake.deny(request.url), for: request, provider))
        }
        #expect(error == .accessDenied)
        #expect(error.serverErrorCode == "access_denied")
        #expect(error.errorDescription?.contains("The user said no") == true)
        #expect(try await store.load() == nil)
    }

    @Test("a denial's error_description is read form-encoded: `+` is a space, `%2B` a plus")
    func denialFormEncoded() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        let state = FakeOIDCServer.query(of: request.url)["state"] ?? ""
        let callback = URL(string: redirect.absoluteString + "?error=access_denied&error_description="
            + "The+resource+owner+or+authorization+server+denied+the+request%2C+1%2B1&state=\(state)")!
        let error = try await #require(throws: SignInError.self) {
            try await makeSession(fake, provider).signIn(with: .callback(callback, for: request, provider))
        }
        #expect(error == .accessDenied)
        #expect(error.errorDescription?.contains("The resource owner or authorization server denied the request, 1+1") == true,
                "\(error.errorDescription ?? "")")
    }

    @Test("another authorization error keeps the server's RFC 6749 §4.1.2.1 code; a callback with neither code nor error is refused")
    func otherErrors() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = makeSession(fake, provider)
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        let scopeError = FakeOIDCServer.callback(redirect.absoluteString, ["error": "invalid_scope", "state": request.state])
        await #expect(throws: SignInError.authorizationError("invalid_scope")) {
            try await session.signIn(with: .callback(scopeError, for: request, provider))
        }
        let empty = FakeOIDCServer.callback(redirect.absoluteString, ["state": request.state])
        await #expect(throws: SignInError.authorizationError(nil)) {
            try await session.signIn(with: .callback(empty, for: request, provider))
        }
        let mixUp = FakeOIDCServer.callback(redirect.absoluteString, ["code": "x", "state": request.state,
                                                                      "iss": "https://evil.example.test"])
        await #expect(throws: SignInError.authorizationError(nil)) {
            try await session.signIn(with: .callback(mixUp, for: request, provider))
        }
    }

    @Test("a code the token endpoint refuses (used twice) is tokenEndpointError with invalid_grant")
    func codeUsedTwice() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = makeSession(fake, provider)
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        let callback = fake.approve(request.url)
        try await session.signIn(with: .callback(callback, for: request, provider))
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .callback(callback, for: request, provider))
        }
        #expect(error == .tokenEndpointError("invalid_grant"))
        #expect(error.errorDescription?.contains("Invalid code or verifier") == true)
    }

    @Test("openid asked for but no ID token sent is refused; without openid, the access token's subject is not needed from an ID token")
    func missingIDToken() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.sendsIDToken = false }
        let provider = try await fake.provider()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        await #expect(throws: SignInError.idTokenInvalid(.format)) {
            try await makeSession(fake, provider).signIn(with: .callback(fake.approve(request.url), for: request, provider))
        }
    }

    @Test("the token endpoint's answer without an access token is invalidResponse")
    func noAccessToken() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: [])
        let callback = fake.approve(request.url)
        fake.transport.serve { _ in .json(200, #"{"token_type":"Bearer"}"#) }
        await #expect(throws: SignInError.invalidResponse) {
            try await makeSession(fake, provider).signIn(with: .callback(callback, for: request, provider))
        }
    }
}
