import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// What a server chooses is checked before the SDK uses it or shows it: token types it cannot
/// use, tokens that would break a header, verification URIs a user must not be sent to, user
/// codes and messages that would drive a terminal, userinfo about somebody else.
@Suite("Server answers checked before use: token types, tokens, verification URIs, text for terminals, userinfo's subject")
struct ServerAnswerChecksTests {
    static let metadata = AuthorizationServerMetadata(
        issuer: URL(string: "https://auth.example.test")!, tokenEndpoint: URL(string: "https://auth.example.test/token")!,
        deviceAuthorizationEndpoint: URL(string: "https://auth.example.test/device")!,
        userinfoEndpoint: URL(string: "https://auth.example.test/userinfo")!)

    static func provider(_ reply: @escaping @Sendable (HTTPRequest) -> TestTransport.Reply) -> OAuthProvider {
        OAuthProvider(metadata: metadata, clientID: "ci-job", clientSecret: "s3cret-value", transport: TestTransport { reply($0) })
    }

    static func clientCredentials(answer: String) async throws -> SignInError? {
        let provider = provider { _ in .json(200, answer) }
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: provider.transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .clientCredentials(provider, scopes: []))
        do {
            try await session.signIn(with: .clientCredentials(provider, scopes: []))
            return nil
        } catch let error as SignInError {
            return error
        }
    }

    @Test("a token type other than Bearer is refused (RFC 6749 §7.1), naming the type and never the token",
          arguments: ["DPoP", "mac", "N_A", "", "Bearer\u{1B}[2J"])
    func unknownTokenType(type: String) async throws {
        let answer = try String(decoding: JSONSerialization.data(withJSONObject: ["access_token": "AT-9f8e7d", "token_type": type]), as: UTF8.self)
        let error = try #require(try await Self.clientCredentials(answer: answer))
        #expect(error == .invalidResponse)
        let text = error.errorDescription ?? ""
        #expect(text.contains("token type") && !text.contains("AT-9f8e7d") && !text.contains("\u{1B}"), "\(text)")
    }

    @Test("Bearer in any case, or no token_type at all, is used", arguments: [#","token_type":"bearer""#, #","token_type":"BEARER""#, ""])
    func bearerAccepted(field: String) async throws {
        #expect(try await Self.clientCredentials(answer: #"{"access_token":"AT-1"\#(field)}"#) == nil)
    }

    @Test("an access or refresh token with CR, LF, NUL, a space or an escape is refused, never stored",
          arguments: ["AT\r\nX-Injected: 1", "AT\u{0}x", "AT x", "AT\u{1B}]52;c;aGk=\u{7}", "AT-é"])
    func tokenOutsideVisibleASCII(token: String) async throws {
        let answer = try String(decoding: JSONSerialization.data(withJSONObject: ["access_token": token, "token_type": "Bearer"]), as: UTF8.self)
        let error = try #require(try await Self.clientCredentials(answer: answer))
        #expect(error == .invalidResponse)
        #expect(error.errorDescription?.contains("visible ASCII") == true, "\(error.errorDescription ?? "")")
        // The JSON presets refuse the same tokens.
        let json = try JSONSerialization.data(withJSONObject: ["accessToken": token, "refreshToken": "RT-1", "tokenType": "Bearer"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Tokens.self, from: json) }
    }

    @Test("a server's error_description with escape sequences reaches the error written as escapes",
          arguments: ["\u{1B}]52;c;ZXZpbA==\u{7}", "\u{1B}[2J\u{1B}[H", "\u{1B}]0;pwned\u{7}", "a\u{202E}txt.exe", "line\nbreak\u{9B}31m"])
    func controlCharactersEscaped(description: String) async throws {
        let body = try String(decoding: JSONSerialization.data(withJSONObject: ["error": "invalid_scope", "error_description": description]), as: UTF8.self)
        let provider = Self.provider { _ in .json(400, body, headers: ["WWW-Authenticate": "Bearer error_description=\"\(description.filter { $0 != "\n" })\""]) }
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: provider.transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .clientCredentials(provider, scopes: []))
        let error = try await #require(throws: SignInError.self) { try await session.signIn(with: .clientCredentials(provider, scopes: [])) }
        for text in [error.errorDescription ?? "", String(describing: error), String(describing: error.underlying as Any)] {
            #expect(!text.unicodeScalars.contains { Redaction.isUnprintable($0) }, "\(text.debugDescription)")
        }
        #expect(error.errorDescription?.contains("\\u{1B}") == true || error.errorDescription?.contains("\\u{20") == true
                    || error.errorDescription?.contains("\\u{A}") == true, "\(error.errorDescription ?? "")")
    }

    @Test("a device answer whose verification URI is not https (or http on loopback) is refused before the user sees it",
          arguments: ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "ssh://evil.example", "http://192.0.2.2/device",
                      "https://:443/x"])
    func verificationURIRefused(uri: String) async throws {
        let body = try String(decoding: JSONSerialization.data(withJSONObject: [
            "device_code": "DC-secret-1", "user_code": "WDJB-MJHT", "verification_uri": uri, "expires_in": 600]), as: UTF8.self)
        let provider = Self.provider { _ in .json(200, body) }
        let error = try await #require(throws: SignInError.self) { try await provider.startDeviceAuthorization(scopes: []) }
        #expect(error == .invalidResponse)
        #expect(error.errorDescription?.contains("verification_uri") == true)
        #expect(error.errorDescription?.contains("DC-secret-1") == false)
    }

    @Test("a verification_uri_complete that is not https is refused too; https and loopback http are used",
          arguments: [("javascript:alert(1)", false), ("https://auth.example.test/device?user_code=WDJB", true),
                      ("http://127.0.0.1:8080/device", true)])
    func verificationURICompleteChecked(uri: String, accepted: Bool) async throws {
        let body = try String(decoding: JSONSerialization.data(withJSONObject: [
            "device_code": "DC-1", "user_code": "WDJB-MJHT", "verification_uri": "https://auth.example.test/device",
            "verification_uri_complete": uri]), as: UTF8.self)
        let provider = Self.provider { _ in .json(200, body) }
        if accepted {
            let authorization = try await provider.startDeviceAuthorization(scopes: [])
            #expect(authorization.verificationURIComplete?.absoluteString == uri)
        } else {
            await #expect(throws: SignInError.invalidResponse) { try await provider.startDeviceAuthorization(scopes: []) }
        }
    }

    @Test("a user code with a control character, or longer than 64 characters, is refused",
          arguments: ["WDJB\u{1B}]52;c;aGk=\u{7}", "AB\u{202E}CD", String(repeating: "A", count: 65)])
    func userCodeRefused(code: String) async throws {
        let body = try String(decoding: JSONSerialization.data(withJSONObject: [
            "device_code": "DC-1", "user_code": code, "verification_uri": "https://auth.example.test/device"]), as: UTF8.self)
        let provider = Self.provider { _ in .json(200, body) }
        await #expect(throws: SignInError.invalidResponse) { try await provider.startDeviceAuthorization(scopes: []) }
    }

    @Test("the polling interval is never longer than the code lives (interval 1e9 with expires_in 5 polls after 5 s)")
    func intervalCappedAtLifetime() async throws {
        let provider = Self.provider { _ in
            .json(200, #"{"device_code":"DC-1","user_code":"WDJB-MJHT","verification_uri":"https://auth.example.test/d","expires_in":5,"interval":1e9}"#)
        }
        let authorization = try await provider.startDeviceAuthorization(scopes: [])
        #expect(authorization.expiresIn == 5 && authorization.interval == 5)
    }

    @Test("userinfo about another subject than the session's, or without a subject, is not used (OpenID Connect Core §5.3.4)",
          arguments: [#"{"sub":"mallory","name":"Mallory"}"#, #"{"name":"nobody"}"#, #"{"sub":""}"#])
    func userInfoForAnotherSubject(body: String) async throws {
        let provider = Self.provider { _ in .json(200, body) }
        let error = try await #require(throws: SignInError.self) {
            try await provider.userInfo(accessToken: AccessToken("AT-1"), subject: "alice")
        }
        #expect(error == .invalidResponse)
        let same = Self.provider { _ in .json(200, #"{"sub":"alice","name":"Alice"}"#) }
        #expect(try await same.userInfo(accessToken: AccessToken("AT-1"), subject: "alice")["name"]?.string == "Alice")
    }
}
