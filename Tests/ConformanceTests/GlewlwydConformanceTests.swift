import AppSDKHarness
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// The sign-in flows and the session engine against glewlwyd 2.7.5 (Debian's OpenID Connect
/// provider, `scripts/lib/glewlwyd.sh`), through the SDK's public API only (``OAuthProvider``,
/// ``SignInFlow``, ``SessionService``): a provider that compares redirect URIs as strings,
/// refuses client credentials without a scope, writes `exp` as a whole-second `iat` plus the
/// lifetime, and rotates refresh tokens with reuse detection (`refresh-token-one-use: always`).
/// Its protected resource here is its userinfo endpoint. Serialized: the browser tests share
/// the one registered redirect port, and the timing tests want the machine to themselves.
///
/// `scripts/test` runs these as the `glewlwyd` phase (`--filter Glewlwyd`); the
/// django-oauth-toolkit phase skips them.
@Suite("OpenID Connect conformance (glewlwyd)", .serialized, .glewlwyd)
struct GlewlwydConformanceTests {
    static let scopes = ["openid", "conformance"]
    let folder: URL
    let issuer: URL
    let api: Server

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glewlwyd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        issuer = try GlewlwydTestServer.issuerURL()
        api = try GlewlwydTestServer.server()
    }

    func store(_ name: String) -> FileTokenStore {
        FileTokenStore(fileURL: folder.appendingPathComponent("\(name).json"))
    }

    /// A session of `clientID` (discovered), its refresh decisions counted by `records` when given.
    func session(clientID: String, clientSecret: String? = nil, store: String,
                 records: SessionRecords? = nil) async throws -> (SessionService, OAuthProvider) {
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID, clientSecret: clientSecret)
        var configuration = SessionService.Configuration.oauth2(provider)
        configuration.observer = records?.observer
        return (SessionService(server: api, tokenStore: self.store(store), configuration: configuration), provider)
    }

    /// Signs in with the browser flow on the registered redirect port, the test playing the user
    /// in glewlwyd's JSON API; returns the session, the sign-in's result and the authorization URL.
    func browserSignIn(store: String = "browser", records: SessionRecords? = nil) async throws
        -> (session: SessionService, provider: OAuthProvider, result: SignInResult, authorizationURL: URL) {
        let port = try #require(GlewlwydTestServer.redirectPort)
        let (session, provider) = try await self.session(clientID: GlewlwydTestServer.browserClientID, store: store, records: records)
        let user = try GlewlwydTestUser.conformance()
        let opened = LockedValue<URL?>(nil)
        let (outcome, page) = try await UserInTheLoop.run(signIn: { open in
            try await session.signIn(with: .browser(provider, scopes: Self.scopes, redirectPort: port, timeout: .seconds(30)) { url in
                try await open(url)
            })
        }, user: { url in
            opened.withLock { $0 = url }
            return try await user.authorize(url)
        })
        let result = try outcome.get()
        #expect(page?.status == 200, "the loopback listener answered the browser \(page?.status ?? 0)")
        return (session, provider, result, try #require(opened.withLock { $0 }))
    }

    /// Signs in with the device flow, the test approving the user code through glewlwyd's API.
    func deviceSignIn(store: String = "device", records: SessionRecords? = nil) async throws
        -> (session: SessionService, provider: OAuthProvider, result: SignInResult, shown: DeviceAuthorization) {
        let (session, provider) = try await self.session(clientID: GlewlwydTestServer.deviceClientID, store: store, records: records)
        let user = try GlewlwydTestUser.conformance()
        let (outcome, shown) = try await UserInTheLoop.run(signIn: { show in
            try await session.signIn(with: .device(provider, scopes: Self.scopes) { authorization in try await show(authorization) })
        }, user: { (authorization: DeviceAuthorization) in
            try await user.approve(verificationURI: authorization.verificationURI, userCode: authorization.userCode,
                                   clientID: GlewlwydTestServer.deviceClientID, scopes: Self.scopes)
            return authorization
        })
        return (session, provider, try outcome.get(), try #require(shown))
    }

    // MARK: The flows

    @Test("browser sign-in with the exact registered redirect port: the session starts, userinfo through it is the user's")
    func browserExactRedirectPort() async throws {
        let port = try #require(GlewlwydTestServer.redirectPort)
        let (session, provider, result, url) = try await browserSignIn()
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "redirect_uri" }?.value == "http://127.0.0.1:\(port)/callback")
        #expect(query.first { $0.name == "code_challenge_method" }?.value == "S256")
        let idToken = try #require(result.idToken)
        #expect(idToken.iss == GlewlwydTestServer.issuer)
        #expect(idToken.aud == [GlewlwydTestServer.browserClientID])
        #expect(result.accountID == idToken.sub)
        #expect(try await session.signedInAccountID() == idToken.sub)
        let claims = try await session.userInfo(from: provider)
        #expect(claims["sub"]?.string == idToken.sub)
        #expect(claims["name"]?.string == "Conformance User")
        #expect(try #require(try await session.tokenStore.load()).refreshToken.isEmpty == false)
        print("glewlwyd: browser flow on the registered port \(port): session for sub \(idToken.sub.prefix(6))…, userinfo answered")
        try await session.signOut()
    }

    @Test("glewlwyd compares redirect URIs as strings: the same request on another port is refused, so redirectPort is needed")
    func otherPortRefused() async throws {
        let port = try #require(GlewlwydTestServer.redirectPort)
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: GlewlwydTestServer.browserClientID)
        let other: UInt16 = port == 65_535 ? port - 1 : port + 1
        let request = try provider.authorizationRequest(redirectURI: try #require(URL(string: "http://127.0.0.1:\(other)/callback")),
                                                        scopes: Self.scopes)
        let user = try GlewlwydTestUser.conformance()
        try await user.signIn()
        try await user.grant(clientID: GlewlwydTestServer.browserClientID, scopes: Self.scopes)
        let page = try await user.request(request.url)
        #expect(page.status == 403)
        #expect(page.location == nil)
    }

    @Test("device sign-in: the user approves the code through glewlwyd's API while the SDK polls, and the session starts")
    func device() async throws {
        let started = ContinuousClock.now
        let (session, provider, result, shown) = try await deviceSignIn()
        let elapsed = ContinuousClock.now - started
        #expect(shown.verificationURI.absoluteString == GlewlwydTestServer.issuer + "/device")
        #expect(shown.interval == 1)
        let idToken = try #require(result.idToken)
        #expect(idToken.aud == [GlewlwydTestServer.deviceClientID])
        #expect(try await session.signedInAccountID() == idToken.sub)
        #expect(try await session.userInfo(from: provider)["name"]?.string == "Conformance User")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("glewlwyd: device flow approved through the JSON API, session in \(String(format: "%.1f", seconds)) s")
        try await session.signOut()
    }

    @Test("client credentials with the required scope: the token is the client's with that scope; without a scope glewlwyd refuses")
    func clientCredentials() async throws {
        let scope = GlewlwydTestServer.serviceScope
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: GlewlwydTestServer.serviceClientID,
                                                        clientSecret: GlewlwydTestServer.serviceClientSecret)
        let session = SessionService(server: api, tokenStore: store("service"),
                                     configuration: .clientCredentials(provider, scopes: [scope]))
        let result = try await session.signIn(with: .clientCredentials(provider, scopes: [scope]))
        #expect(result.accountID == GlewlwydTestServer.serviceClientID)
        let first = try await session.request { _, token in token.rawValue }
        let claims = try #require(JWTClaims(first))
        #expect(claims.string("client_id") == GlewlwydTestServer.serviceClientID)
        #expect(claims.string("sub") == GlewlwydTestServer.serviceClientID)
        #expect(claims.string("scope") == scope)
        // A due token is replaced by another client-credentials request.
        try await Task.sleep(for: .seconds(Double(GlewlwydTestServer.accessTokenLifetime)))
        let second = try await session.request { _, token in token.rawValue }
        #expect(second != first)
        try await session.signOut()

        // Without a scope, glewlwyd answers 403 with no body: the sign-in fails and stores nothing.
        let unscoped = SessionService(server: api, tokenStore: store("unscoped"), configuration: .clientCredentials(provider, scopes: []))
        let error = await #expect(throws: SignInError.self) { try await unscoped.signIn(with: .clientCredentials(provider, scopes: [])) }
        #expect(error?.kind == .networkFailure)
        #expect((error?.underlying as? NetworkError)?.statusCode == 403)
        #expect(try await unscoped.tokenStore.load() == nil)
        print("glewlwyd: client credentials with scope \(scope): signed in as the client, a due token replaced; without a scope: HTTP 403, no body")
    }

    // MARK: The session engine

    @Test("rotation with reuse detection: the session's refresh token presented again after it rotated ends the session with the server's answer")
    func reuseEndsTheSession() async throws {
        let records = SessionRecords()
        let (session, provider, _, _) = try await browserSignIn(store: "reuse", records: records)
        let events = session.events()
        let first = try #require(try await session.tokenStore.load())
        // The session rotates its refresh token when the access token is due.
        try await sleepPast(first.accessTokenExpiresAt)
        _ = try await session.userInfo(from: provider)
        let rotated = try #require(try await session.tokenStore.load())
        #expect(rotated.refreshToken != first.refreshToken)
        #expect(records.refreshes(.due) == 1)

        // Someone presents the first refresh token again: glewlwyd refuses it and disables the
        // chain, so the session's current refresh token dies too.
        let replay = OAuth2TokenClient(tokenEndpoint: EndpointPath(stringLiteral: provider.metadata.tokenEndpoint.path),
                                       clientID: GlewlwydTestServer.browserClientID)
        let replayed = await #expect(throws: NetworkError.self) { _ = try await replay.refresh(refreshToken: first.refreshToken, server: api) }
        #expect(replayed?.statusCode == 400)

        try await sleepPast(rotated.accessTokenExpiresAt)
        let error = await #expect(throws: SessionError.self) { _ = try await session.userInfo(from: provider) }
        #expect(error?.kind == .sessionEnded)
        let reason = try #require(error?.reason)
        #expect(reason == .refreshRefused(status: 400, code: nil))
        // The events: the rotation (a second one too if the server refused a token on a slow
        // machine), then the end with the same reason.
        var heard: [SessionEvent] = []
        for await event in events {
            heard.append(event)
            if case .signedOut = event { break }
        }
        #expect(heard.first == .refreshed(accountID: first.accountID))
        #expect(heard.last == .signedOut(reason))
        #expect(try await session.tokenStore.load() == nil)
        print("glewlwyd: refresh token reused after rotation: the session's next refresh was refused, signed out (\(reason))")
    }

    @Test("whole-second iat: over many refreshes of short-lived tokens, the stored expiry is never later than the token's exp")
    func expiryNeverPastExp() async throws {
        let records = SessionRecords()
        let (session, provider, _, _) = try await deviceSignIn(store: "expiry", records: records)
        let lifetime = Double(GlewlwydTestServer.accessTokenLifetime)
        let end = ContinuousClock.now + .seconds(max(10, 4 * lifetime))
        var seen: Set<String> = []
        var latest = -Double.infinity  // the largest stored expiry − exp, in seconds
        var handedLate = 0
        while ContinuousClock.now < end {
            // The token the session hands out, and each one it stores (the sign-in's first),
            // against its own exp.
            let handed = try await session.request { _, token in (token.rawValue, Date()) }
            if let exp = JWTClaims(handed.0)?.date("exp"), handed.1 >= exp { handedLate += 1 }
            let stored = try #require(try await session.tokenStore.load())
            if seen.insert(stored.accessToken.rawValue).inserted {
                let exp = try #require(JWTClaims(stored.accessToken.rawValue)?.date("exp"))
                let expiresAt = try #require(stored.accessTokenExpiresAt)
                #expect(expiresAt <= exp, "token \(seen.count) (\(seen.count == 1 ? "the sign-in's" : "a refresh's")): stored expiry \(expiresAt.timeIntervalSince(exp)) s after its exp")
                latest = max(latest, expiresAt.timeIntervalSince(exp))
                _ = try await session.userInfo(from: provider)  // the server takes the new token
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen.count >= 4, "only \(seen.count) access tokens in the run")
        #expect(handedLate == 0)
        print("glewlwyd: \(seen.count) access tokens of \(Int(lifetime)) s: every stored expiry at or before the token's exp (the latest \(String(format: "%.3f", -latest)) s before), \(handedLate) handed out at or after exp; refreshes: \(records.refreshes(.due)) due, \(records.refreshes(nil) - records.refreshes(.due)) after a refusal")
        try await session.signOut()
    }
}

/// The refresh decisions a session reported to its observer.
final class SessionRecords: Sendable {
    private let records = LockedValue<[SessionRecord]>([])

    var observer: SessionObserver {
        SessionObserver { [records] record in records.withLock { $0.append(record) } }
    }

    /// The refreshes started for `cause` (every refresh when `nil`).
    func refreshes(_ cause: RefreshCause?) -> Int {
        records.withLock { records in
            records.filter { record in
                guard case let .refreshStarted(started) = record.event else { return false }
                return cause == nil || started == cause
            }.count
        }
    }
}

/// A JWT's payload, read without checking the signature (the test compares times only).
struct JWTClaims {
    let claims: [String: Any]

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        self.claims = claims
    }

    func string(_ name: String) -> String? { claims[name] as? String }
    func date(_ name: String) -> Date? { (claims[name] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) } }
}

/// Sleeps until 0.2 s after `date` (not at all when that has passed, or without a date).
private func sleepPast(_ date: Date?) async throws {
    let seconds = (date ?? Date()).timeIntervalSinceNow + 0.2
    if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
}
