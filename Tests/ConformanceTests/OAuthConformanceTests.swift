import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

/// The SDK's OAuth 2.0 preset against a real third-party server (django-oauth-toolkit,
/// 5-second access tokens, rotating refresh tokens with reuse protection), through the
/// code of docs/OTHER-SERVERS.md (``OAuthAdopter``). Serialized: the tests read the server's counters.
@Suite("OAuth 2.0 conformance (django-oauth-toolkit)", .serialized, .oauthServer)
struct OAuthConformanceTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func adopter(_ name: String = "store", policy: AuthenticationFailurePolicy? = nil) async throws -> OAuthAdopter {
        try await OAuthAdopter(baseURL: try #require(OAuthTestServer.url), clientID: OAuthTestServer.clientID,
                               clientSecret: OAuthTestServer.clientSecret,
                               storeURL: folder.appendingPathComponent("\(name).enc"), keyURL: folder.appendingPathComponent("\(name).key"),
                               authenticationFailurePolicy: policy)
    }

    func signedIn(_ name: String = "store", policy: AuthenticationFailurePolicy? = nil) async throws -> OAuthAdopter {
        let adopter = try await adopter(name, policy: policy)
        try await adopter.signIn(username: OAuthTestServer.username, password: OAuthTestServer.password)
        return adopter
    }

    @Test("signing in with the password grant starts a session that reaches the protected resource")
    func signIn() async throws {
        let adopter = try await signedIn()
        #expect(try await adopter.me().username == OAuthTestServer.username)
        #expect(try await adopter.service.signedInAccountID() == OAuthTestServer.username)
        try await adopter.service.signOut()
    }

    @Test("200 concurrent calls with an expired access token make exactly one refresh at the server")
    func storm() async throws {
        let adopter = try await signedIn()
        _ = try await adopter.me()
        try await OAuthTestServer.expireAccessTokens()
        try await OAuthTestServer.reset()
        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask { (try? await adopter.me()) == nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let counters = try await OAuthTestServer.counters()
        #expect(failures == 0)
        #expect(counters.refreshCalls == 1)
        #expect(counters.invalidGrant == 0)
        print("conformance: storm of 200 concurrent calls after a server-side expiry: \(counters.refreshCalls) refresh, \(counters.unauthorized) 401s at the server, \(failures) failed calls")
        try await adopter.service.signOut()
    }

    @Test("4 processes sharing one encrypted store for 30 s: no failed call, no sign-out, no refresh token reused")
    func processesShareOneSession() async throws {
        let adopter = try await signedIn("shared")
        _ = try await adopter.me()
        try await OAuthTestServer.reset()
        let probe = try ChildProcess.locate("OAuthProbe")
        let arguments = [try #require(OAuthTestServer.url), OAuthTestServer.clientID,
                         folder.appendingPathComponent("shared.enc").path, folder.appendingPathComponent("shared.key").path, "30", "100"]
        let seconds = 30.0
        let outcomes = try await ChildProcess.runAll(probe, Array(repeating: arguments, count: 4),
                                                     environment: ["APP_OAUTH_CLIENT_SECRET": OAuthTestServer.clientSecret])
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
        #expect(counters.invalidGrant == 0)
        #expect(try await adopter.me().username == OAuthTestServer.username)
        // Refreshed ahead at half the 5-second lifetime: about one refresh per 2.5 s, shared by all four.
        let minimum = Int((seconds / 5).rounded(.up))
        print("conformance: 4 processes × \(Int(seconds)) s sharing an encrypted store: \(calls) calls, 0 failed, 0 sign-outs, \(counters.refreshCalls) refreshes at the server (at least \(minimum) needed), \(counters.invalidGrant) invalid_grant")
        #expect(counters.refreshCalls <= Int(seconds / 2.5) + 4)
        try await adopter.service.signOut()
    }

    @Test("a refresh token made stale behind the SDK's back ends the session: signedOut, store cleared, no loop")
    func staleRefreshToken() async throws {
        let adopter = try await signedIn()
        let events = adopter.service.events()
        let stored = try #require(try await adopter.service.tokenStore.load())
        _ = try await adopter.oauth.refresh(refreshToken: stored.refreshToken, server: adopter.server)  // someone else rotates it
        try await OAuthTestServer.expireAccessTokens()
        try await OAuthTestServer.reset()

        let error = await #expect(throws: SessionError.self) { try await adopter.me() }
        #expect(error?.kind == .sessionEnded)
        #expect(error?.reason == .refreshTokenRejected(.invalidGrant))
        #expect(try await adopter.service.tokenStore.load() == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut(.refreshTokenRejected(.invalidGrant)))
        let next = await #expect(throws: SessionError.self) { try await adopter.me() }
        #expect(next?.kind == .notSignedIn)
        #expect(try await OAuthTestServer.counters().refreshCalls == 1)
    }

    @Test("the server stopped mid-session: a transient error, the credentials kept, and it works after the restart")
    func serverStopped() async throws {
        let adopter = try await signedIn()
        _ = try await adopter.me()
        let before = try #require(try await adopter.service.tokenStore.load())
        try OAuthTestServer.stop()
        var resumed = false
        defer { if !resumed { try? OAuthTestServer.resume() } }
        try await Task.sleep(for: .seconds(3))  // the access token is due for a refresh now
        do {
            _ = try await adopter.me()
            Issue.record("a call to a stopped server succeeded")
        } catch let error as SessionError {
            #expect(error.kind == .refreshFailed)
            #expect(error.isTransient)
        } catch let error as NetworkError {
            #expect(error.isTransient)
        }
        #expect(try await adopter.service.tokenStore.load() == before)
        try OAuthTestServer.resume()
        resumed = true
        #expect(try await adopter.me().username == OAuthTestServer.username)
        try await adopter.service.signOut()
    }

    @Test("sign-out revokes the session at the server (RFC 7009): its tokens are dead afterwards")
    func revocation() async throws {
        let adopter = try await signedIn()
        let stored = try #require(try await adopter.service.tokenStore.load())
        let result = try await adopter.service.signOut()
        #expect(result.serverConfirmed)
        #expect(try await adopter.service.tokenStore.load() == nil)
        let access = await #expect(throws: NetworkError.self) {
            let _: Me = try await adopter.server.send(MeEndpoint(), accessToken: stored.accessToken)
        }
        #expect(access?.statusCode == 401)
        #expect(access?.serverErrorCode == .invalidToken)
        let refresh = await #expect(throws: NetworkError.self) {
            _ = try await adopter.oauth.refresh(refreshToken: stored.refreshToken, server: adopter.server)
        }
        #expect(refresh?.serverErrorCode == .invalidGrant)
    }

    // MARK: A protected view that answers 403 for an expired token (issue #19, item 4)

    @Test("DOT's ProtectedResourceView answers a bare 403 for an expired token: the default policy does not refresh, the call gets the 403")
    func forbiddenOnExpiryDefaultPolicy() async throws {
        let adopter = try await signedIn()
        #expect(try await adopter.me(at: "/api/me-forbidden/").username == OAuthTestServer.username)
        try await OAuthTestServer.expireAccessTokens()
        try await OAuthTestServer.reset()
        let error = await #expect(throws: NetworkError.self) { try await adopter.me(at: "/api/me-forbidden/") }
        #expect(error?.statusCode == 403)
        #expect(error?.authenticateChallenge == nil)
        let counters = try await OAuthTestServer.counters()
        #expect(counters.refreshCalls == 0)
        #expect(counters.forbidden == 1)
        try await adopter.service.signOut()
    }

    @Test("the opted-in policy (forbiddenMeansExpiredToken) refreshes once on that 403, and the call works")
    func forbiddenOnExpiryOptedIn() async throws {
        let adopter = try await signedIn(policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true))
        #expect(try await adopter.me(at: "/api/me-forbidden/").username == OAuthTestServer.username)
        try await OAuthTestServer.expireAccessTokens()
        try await OAuthTestServer.reset()
        #expect(try await adopter.me(at: "/api/me-forbidden/").username == OAuthTestServer.username)
        let counters = try await OAuthTestServer.counters()
        #expect(counters.refreshCalls == 1)
        #expect(counters.forbidden == 1)
        #expect(counters.invalidGrant == 0)
        print("conformance: a bare 403 for an expired token, opted in: \(counters.refreshCalls) refresh, \(counters.forbidden) 403 at the server, the call worked")
        try await adopter.service.signOut()
    }

    @Test("opted in, a real permission 403 (a scope no token has) costs one refresh per call and the refresh limit stops it: 8 calls, 5 refreshes")
    func permissionForbiddenDoesNotLoop() async throws {
        let adopter = try await signedIn(policy: AuthenticationFailurePolicy(forbiddenMeansExpiredToken: true))
        try await OAuthTestServer.reset()
        var statuses: [Int?] = []
        for _ in 0..<8 {
            do {
                _ = try await adopter.me(at: "/api/admin/")
            } catch let error as NetworkError {
                statuses.append(error.statusCode)
            }
        }
        #expect(statuses == Array(repeating: 403, count: 8))
        let counters = try await OAuthTestServer.counters()
        #expect(counters.refreshCalls == RefreshLimit().maximumRefreshes)
        #expect(counters.invalidGrant == 0)
        #expect(counters.forbidden == 5 * 2 + 3)
        #expect(try await adopter.me().username == OAuthTestServer.username)  // the session is intact
        print("conformance: a permission 403, opted in, 8 calls: \(counters.refreshCalls) refreshes, \(counters.forbidden) 403s at the server")
        try await adopter.service.signOut()
    }
}
