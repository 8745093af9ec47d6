import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// A successful token answer is never quoted, whatever its shape, and a secret a server echoes
/// back is redacted in every encoding it may echo it in.
@Suite("Token answers and echoed secrets never reach an error")
struct TokenAnswerSecrecyTests {
    static let accessToken = "AT.idp.9f8e7d6c5b4a39281706"
    static let secret = "post-Secret-Z3x8/+=&? y"

    static func provider(answering reply: @escaping @Sendable (HTTPRequest) -> TestTransport.Reply,
                         authMethods: [String] = []) -> (OAuthProvider, TestTransport) {
        let transport = TestTransport { reply($0) }
        let metadata = AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.test")!,
                                                   tokenEndpoint: URL(string: "https://auth.example.test/token")!,
                                                   tokenEndpointAuthMethodsSupported: authMethods)
        return (OAuthProvider(metadata: metadata, clientID: "ci-job", clientSecret: secret, transport: transport), transport)
    }

    /// Every text an error offers a program or a person.
    static func texts(of error: any Error) -> [String] {
        var texts = [String(describing: error), String(reflecting: error), error.localizedDescription]
        if let error = error as? any LocalizedError { texts += [error.errorDescription, error.failureReason, error.recoverySuggestion].compactMap { $0 } }
        if let error = error as? SignInError, let underlying = error.underlying { texts += Self.texts(of: underlying) }
        return texts
    }

    @Test("a 200 token answer that is not a JSON object quotes no byte of its body",
          arguments: [
              "access_token=\(accessToken)&token_type=Bearer&expires_in=3600",
              #"{"access_token":"\#(accessToken)","token_type":"Bearer"} trailing"#,
              String(repeating: "[", count: 600) + accessToken + String(repeating: "]", count: 600),
              #"{"access_token":"\#(accessToken)""#,
              "\u{FEFF}" + accessToken,
          ])
    func successfulAnswerNeverQuoted(body: String) async throws {
        let (provider, _) = Self.provider { _ in TestTransport.Reply(status: 200, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                      body: Data(body.utf8)) }
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: provider.transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .clientCredentials(provider, scopes: []))
        let error = try await #require(throws: SignInError.self) { try await session.signIn(with: .clientCredentials(provider, scopes: [])) }
        #expect(error == .invalidResponse)
        for text in Self.texts(of: error) {
            #expect(!text.contains("9f8e7d6c5b4a"), "\(text)")
            #expect(!text.contains("access_token="), "\(text)")
        }
        #expect(error.errorDescription?.contains("not quoted") == true, "\(error.errorDescription ?? "")")
    }

    @Test("a refresh answered 200 with a form-encoded body keeps the session and quotes nothing of it")
    func refreshAnswerNeverQuoted() async throws {
        let body = "access_token=\(Self.accessToken)&refresh_token=RT-new-0a1b2c3d4e5f&token_type=Bearer"
        let (provider, _) = Self.provider { _ in TestTransport.Reply(status: 200, body: Data(body.utf8)) }
        let stored = Credentials(accessToken: AccessToken("AT-old"), refreshToken: "RT-old-1f2e3d", accessTokenExpiresAt: .distantPast, accountID: "alice")
        let store = InMemoryTokenStore(credentials: stored)
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: provider.transport),
                                     tokenStore: store, configuration: .oauth2(provider))
        let error = await #expect(throws: (any Error).self) { try await session.request { _, token in token.rawValue } }
        for text in error.map(Self.texts(of:)) ?? [] {
            #expect(!text.contains("9f8e7d6c5b4a") && !text.contains("0a1b2c3d4e5f") && !text.contains("1f2e3d"), "\(text)")
        }
        #expect(try await store.load() == stored)
    }

    @Test("a secret the server echoes in an error is redacted raw, form-encoded, percent-encoded, base64 and JSON-escaped",
          arguments: [secret,
                      "post-Secret-Z3x8%2F%2B%3D%26%3F+y", "post-Secret-Z3x8%2f%2b%3d%26%3f+y", "post-Secret-Z3x8%2F%2B%3D%26%3F%20y",
                      Data(secret.utf8).base64EncodedString(), #"post-Secret-Z3x8\/+=&? y"#])
    func echoedSecretRedacted(echo: String) async throws {
        let (provider, _) = Self.provider(answering: { _ in
            .json(401, #"{"error":"invalid_client","error_description":"unknown secret \#(echo) for ci-job"}"#,
                  headers: ["WWW-Authenticate": #"Basic realm="x", error_description="got \#(echo)""#])
        }, authMethods: ["client_secret_post"])
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: provider.transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .clientCredentials(provider, scopes: []))
        let error = try await #require(throws: SignInError.self) { try await session.signIn(with: .clientCredentials(provider, scopes: [])) }
        #expect(error.serverErrorCode == "invalid_client")
        for text in Self.texts(of: error) {
            #expect(!text.contains("Z3x8"), "\(text)")
        }
    }

    @Test("every encoding of a secret is redacted, and redaction takes the longest form first")
    func encodingsOfASecret() {
        let forms = Redaction.encodings(of: Self.secret)
        #expect(forms.contains("post-Secret-Z3x8%2F%2B%3D%26%3F+y"))
        #expect(forms.contains("post-Secret-Z3x8%2F%2B%3D%26%3F%20y"))
        #expect(forms.contains("cG9zdC1TZWNyZXQtWjN4OC8rPSY/IHk="))
        #expect(forms.contains("cG9zdC1TZWNyZXQtWjN4OC8rPSY_IHk"))
        #expect(forms.contains(#"post-Secret-Z3x8\/+=&? y"#))
        #expect(Redaction.redactingSecrets("a=\(forms.joined(separator: ",b="))", [Self.secret]).contains("Z3x8") == false)
        #expect(Redaction.encodings(of: "").isEmpty)
    }
}
