import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// `session.userInfo(from:)`: userinfo through the session, so a token the server expired early
/// is refreshed once and the question asked again, as any call is.
@Suite("Userinfo through the session: refreshed and asked again after a 401")
struct SessionUserInfoTests {
    final class Provider: Sendable {
        let refreshes = TestMutex(0)
        let userInfoCalls = TestMutex(0)
        let subject: String

        init(subject: String = "alice") { self.subject = subject }

        func answer(_ request: HTTPRequest) -> TestTransport.Reply {
            switch request.url.path {
            case "/token":
                let serial = refreshes.withLock { $0 += 1; return $0 }
                return .json(200, #"{"access_token":"AT-\#(serial)","refresh_token":"RT-\#(serial)","token_type":"Bearer","expires_in":300}"#)
            default:
                userInfoCalls.withLock { $0 += 1 }
                guard request.value(forHeaderField: "Authorization") != "Bearer AT-expired-early" else {
                    return .json(401, #"{"error":"invalid_token"}"#, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
                }
                return .json(200, #"{"sub":"\#(subject)","name":"Alice"}"#)
            }
        }
    }

    static func session(_ fake: Provider) throws -> (SessionService, OAuthProvider) {
        let transport = TestTransport { fake.answer($0) }
        let metadata = AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.test")!,
                                                   tokenEndpoint: URL(string: "https://auth.example.test/token")!,
                                                   userinfoEndpoint: URL(string: "https://auth.example.test/userinfo")!)
        let provider = OAuthProvider(metadata: metadata, clientID: "cli", transport: transport)
        // The stored token has 10 minutes left here, but the server has expired it already.
        let store = InMemoryTokenStore(credentials: Credentials(accessToken: AccessToken("AT-expired-early"), refreshToken: "RT-0",
                                                                accessTokenExpiresAt: Date(timeIntervalSinceNow: 600), accountID: "alice"))
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: transport),
                                     tokenStore: store, configuration: .oauth2(provider))
        return (session, provider)
    }

    @Test("a userinfo 401 for a token with time left here refreshes once and succeeds with the new token")
    func refreshesAfterUnauthorized() async throws {
        let fake = Provider()
        let (session, provider) = try Self.session(fake)
        let claims = try await session.userInfo(from: provider)
        #expect(claims["name"]?.string == "Alice")
        #expect(fake.refreshes.withLock { $0 } == 1)
        #expect(fake.userInfoCalls.withLock { $0 } == 2)
    }

    @Test("an answer about another subject than the session's account is refused, after no refresh")
    func anotherSubject() async throws {
        let fake = Provider(subject: "mallory")
        let (session, provider) = try Self.session(fake)
        await #expect(throws: SignInError.invalidResponse) { try await session.userInfo(from: provider) }
    }
}
