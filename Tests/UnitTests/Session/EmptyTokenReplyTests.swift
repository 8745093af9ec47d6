import AppRepository
import Foundation
import NetworkService
import SessionEngine
import Testing

/// A 200 whose access or refresh token is an empty string could only break the session it
/// replaced: every preset refuses it as an unreadable reply (`.decoding`), so the engine keeps
/// the stored credentials (found by the `token-response` fuzz target for `.oauth2`; `.appAPI`
/// accepted both).
@Suite("A token reply with an empty token is refused by every preset")
struct EmptyTokenReplyTests {
    static let sent = "rt-sent"

    func server(answering body: String) throws -> Server {
        try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .json(200, body)))
    }

    @Test("the app's own refresh refuses an empty access token and an empty refresh token", arguments: [
        #"{"tokens":{"accessToken":"","refreshToken":"r2","tokenType":"Bearer","expiresIn":900}}"#,
        #"{"tokens":{"accessToken":"a2","refreshToken":"","tokenType":"Bearer","expiresIn":900}}"#,
    ])
    func appAPI(body: String) async throws {
        let error = await #expect(throws: NetworkError.self) {
            try await AuthAPI.refresh(refreshToken: Self.sent, server: try server(answering: body))
        }
        #expect(error?.kind == .decoding)
    }

    @Test("OAuth 2.0 refuses an empty access_token")
    func oauth2EmptyAccessToken() async throws {
        let client = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: "app")
        let error = await #expect(throws: NetworkError.self) {
            try await client.refresh(refreshToken: Self.sent, server: try server(answering:
                #"{"access_token":"","token_type":"Bearer","expires_in":3600,"refresh_token":"r2"}"#))
        }
        #expect(error?.kind == .decoding)
        #expect(error?.serverMessage?.contains("access_token") == true)
    }

    @Test("OAuth 2.0 keeps the refresh token it sent when the reply's is empty, as when there is none")
    func oauth2EmptyRefreshToken() async throws {
        let client = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: "app")
        let tokens = try await client.refresh(refreshToken: Self.sent, server: try server(answering:
            #"{"access_token":"a2","token_type":"Bearer","expires_in":3600,"refresh_token":""}"#))
        #expect(tokens.accessToken.rawValue == "a2")
        #expect(tokens.refreshToken == Self.sent)
    }

    @Test("the JSON preset refuses an empty access token")
    func jsonEmptyAccessToken() async throws {
        let refresh = JSONTokenRefresh(path: "/auth/refresh", accessTokenKey: "access", refreshTokenKey: "refresh")
        let error = await #expect(throws: NetworkError.self) {
            try await refresh.refresh(refreshToken: Self.sent, server: try server(answering: #"{"access":"","refresh":"r2"}"#))
        }
        #expect(error?.kind == .decoding)
    }
}
