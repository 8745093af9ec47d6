import AppSDKHarness
import Foundation
import OAuthSignIn
import SessionEngine
import Testing

extension OAuthConformanceTests {
    /// Client credentials (RFC 6749 §4.4) with DOT's 5-second tokens, through the docs'
    /// example (``OIDCAdopter/clientCredentialsSession``): no refresh token; a due token is
    /// replaced through the engine's single-flight, exclusive-section path.
    @Suite("Client credentials")
    struct ClientCredentials {
        let fixture: SignInFixture
        init() throws { fixture = try SignInFixture() }

        func session(_ store: String) async throws -> SessionService {
            try await OIDCAdopter.clientCredentialsSession(
                issuer: fixture.issuer, clientID: OAuthTestServer.serviceClientID, clientSecret: OAuthTestServer.serviceClientSecret,
                scopes: ["read"], api: fixture.api, store: try await fixture.store(store))
        }

        @Test("the job signs in as itself: its token reaches the API as the client's, with no user")
        func signsIn() async throws {
            try await OAuthTestServer.reset()
            let session = try await session("service")
            let owner = try await SignInFixture.owner(session)
            #expect(owner == TokenOwner(clientID: OAuthTestServer.serviceClientID, scope: "read", username: nil))
            #expect(try await OAuthTestServer.counters().clientCredentialsCalls == 1)
            // A second program on the same store finds the session and asks for no token.
            _ = try await SignInFixture.owner(try await self.session("service"))
            #expect(try await OAuthTestServer.counters().clientCredentialsCalls == 1)
            try await session.signOut()
        }

        @Test("a storm of 200 calls once the token is due makes one token request", arguments: ["expired at the server", "due by its lifetime"])
        func storm(_ how: String) async throws {
            let session = try await session("storm")
            _ = try await SignInFixture.owner(session)
            if how == "expired at the server" {
                try await OAuthTestServer.expireAccessTokens()
            } else {
                try await Task.sleep(for: .seconds(5.2))  // past the 5-second lifetime
            }
            try await OAuthTestServer.reset()
            let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<200 {
                    group.addTask { (try? await SignInFixture.owner(session)) == nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let counters = try await OAuthTestServer.counters()
            #expect(failures == 0)
            #expect(counters.clientCredentialsCalls == 1)
            #expect(counters.tokenCalls == 1)
            print("conformance: client credentials, a storm of 200 calls (token \(how)): \(counters.clientCredentialsCalls) token request, \(counters.unauthorized) 401s at the server, \(failures) failed calls")
            try await session.signOut()
        }

        @Test("4 processes sharing one encrypted store for 30 s: close to one token request per 5-second lifetime, no failed call")
        func processesShareOneToken() async throws {
            let session = try await session("shared")
            _ = try await SignInFixture.owner(session)
            try await OAuthTestServer.reset()
            let probe = try ChildProcess.locate("OAuthProbe")
            let (store, key) = fixture.storeFiles("shared")
            let seconds = 30.0
            let arguments = ["client-credentials", try #require(OAuthTestServer.url), OAuthTestServer.issuer, OAuthTestServer.serviceClientID,
                             store.path, key.path, "\(Int(seconds))", "100"]
            let outcomes = try await ChildProcess.runAll(probe, Array(repeating: arguments, count: 4),
                                                         environment: ["APP_OAUTH_SERVICE_CLIENT_SECRET": OAuthTestServer.serviceClientSecret])
            var calls = 0
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
                let lines = outcome.output.split(separator: "\n")
                func number(_ key: String) -> Int? {
                    lines.first { $0.hasPrefix(key + " ") }.flatMap { Int($0.dropFirst(key.count + 1)) }
                }
                #expect(number("failed") == 0, "\(outcome.output)")
                #expect(number("signedOut") == 0, "\(outcome.output)")
                calls += number("calls") ?? 0
            }
            let counters = try await OAuthTestServer.counters()
            // Renewed ahead of expiry (at half the lifetime): about one token per 2.5 s for all
            // four processes together, never one per process.
            let perLifetime = Int(seconds / 5)
            print("conformance: client credentials, 4 processes × \(Int(seconds)) s sharing an encrypted store: \(calls) calls, 0 failed, \(counters.clientCredentialsCalls) token requests (\(perLifetime) lifetimes), \(counters.unauthorized) 401s")
            #expect(counters.clientCredentialsCalls >= perLifetime - 1)
            #expect(counters.clientCredentialsCalls <= Int(seconds / 2.5) + 4)
            #expect(counters.tokenCalls == counters.clientCredentialsCalls)
            try await session.signOut()
        }
    }
}
