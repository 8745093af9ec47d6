import AppSDKTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import OAuthSignIn
import SessionEngine

import Testing
import TokenStore

@Suite("The browser flow's loopback listener (RFC 8252 §7.3)")
struct LoopbackListenerTests {
    /// Starts waiting on `listener` and returns the task.
    func waiting(_ listener: LoopbackListener, timeout: Duration = .seconds(10)) -> Task<URL, any Error> {
        Task { try await listener.waitForCallback(timeout: timeout) }
    }

    @Test("the browser's round trip: it is sent to the authorization URL, comes back to 127.0.0.1/callback, gets a page, and the session starts")
    func realRoundTrip() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let session = SessionService(server: fake.api, tokenStore: store, configuration: .oauth2(provider))
        let page = LockedValue<(Int, String, URL)?>(nil)
        let result = try await session.signIn(with: .browser(provider, scopes: ["openid", "profile"], timeout: .seconds(20)) { url in
            // The test plays the browser: the user approves, the server redirects to the listener.
            let callback = fake.approve(url)
            Task {
                let (data, response) = try await URLSession.shared.data(from: callback)
                page.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self), callback) }
            }
        })
        #expect(result.accountID == "user-42")
        #expect(try await store.load()?.accountID == "user-42")
        var answer = page.withLock { $0 }
        for _ in 0..<500 where answer == nil {
            try await Task.sleep(for: .milliseconds(20))
            answer = page.withLock { $0 }
        }
        let (status, body, callback) = try #require(answer)
        #expect(status == 200)
        #expect(body.contains("You are signed in"))
        #expect(callback.host() == "127.0.0.1" && callback.path() == "/callback" && callback.port != nil)
        // The listener took one request and closed.
        #expect(await RawLoopbackClient.refusesConnections(port: try #require(callback.port)))
    }

    @Test("a denial through the browser ends with accessDenied, and the browser is told the sign-in did not complete")
    func deniedThroughBrowser() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let page = LockedValue<String?>(nil)
        await #expect(throws: SignInError.accessDenied) {
            try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20)) { url in
                let callback = fake.deny(url)
                Task {
                    let (data, _) = try await URLSession.shared.data(from: callback)
                    page.withLock { $0 = String(decoding: data, as: UTF8.self) }
                }
            })
        }
        for _ in 0..<500 where page.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(page.withLock { $0 }?.contains("did not complete") == true)
    }

    @Test("a callback with another state is refused with stateMismatch, and the browser is not told it signed in")
    func tamperedStateThroughBrowser() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let session = SessionService(server: fake.api, tokenStore: store, configuration: .oauth2(provider))
        let page = LockedValue<String?>(nil)
        await #expect(throws: SignInError.stateMismatch) {
            try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .seconds(20)) { url in
                var items = FakeOIDCServer.query(of: fake.approve(url))
                items["state"] = "forged-by-someone-else"
                let callback = FakeOIDCServer.callback(FakeOIDCServer.query(of: url)["redirect_uri"] ?? "", items)
                Task {
                    let (data, _) = try await URLSession.shared.data(from: callback)
                    page.withLock { $0 = String(decoding: data, as: UTF8.self) }
                }
            })
        }
        for _ in 0..<500 where page.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(page.withLock { $0 }?.contains("did not complete") == true)
        #expect(try await store.load() == nil)
        #expect(fake.state.withLock { $0.tokenRequests } == 0)
    }

    @Test("a request to another path gets 404 and ends the flow with loopbackFailed(otherPath)")
    func otherPath() async throws {
        let listener = try LoopbackListener()
        let wait = waiting(listener)
        let answer = await blocking { RawLoopbackClient.exchange(port: listener.port, Array("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) }
        #expect(answer.hasPrefix("HTTP/1.1 404"))
        await #expect(throws: SignInError.loopbackFailed(.otherPath)) { try await wait.value }
        listener.close()
    }

    @Test("a request that is not GET <path> HTTP/1.x gets 400 and loopbackFailed(malformedRequest)", arguments: [
        "POST /callback HTTP/1.1\r\n\r\n", "GET callback HTTP/1.1\r\n\r\n", "GET /callback\r\n\r\n", "\u{1}\u{2}\u{3}\r\n\r\n",
    ])
    func malformed(request: String) async throws {
        let listener = try LoopbackListener()
        let wait = waiting(listener)
        let answer = await blocking { RawLoopbackClient.exchange(port: listener.port, Array(request.utf8)) }
        #expect(answer.hasPrefix("HTTP/1.1 400"))
        await #expect(throws: SignInError.loopbackFailed(.malformedRequest)) { try await wait.value }
        listener.close()
    }

    @Test("a head that ends part way (the client closes) is malformed")
    func truncated() async throws {
        let listener = try LoopbackListener()
        let wait = waiting(listener)
        let descriptor = try #require(RawLoopbackClient.connect(port: listener.port))
        let partial = Array("GET /callback?code=x HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        _ = partial.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        _ = shutdown(descriptor, Int32(SHUT_WR))
        #expect(await blocking { RawLoopbackClient.readAll(descriptor) }.hasPrefix("HTTP/1.1 400"))
        _ = close(descriptor)
        await #expect(throws: SignInError.loopbackFailed(.malformedRequest)) { try await wait.value }
        listener.close()
    }

    @Test("a head that stalls part way past the read deadline is malformed, not waited on for ever")
    func stalled() async throws {
        let listener = try LoopbackListener(readDeadline: .milliseconds(300))
        let wait = waiting(listener)
        let descriptor = try #require(RawLoopbackClient.connect(port: listener.port))
        defer { _ = close(descriptor) }
        let partial = Array("GET /callback?code=x HTTP/1.1\r\n".utf8)
        _ = partial.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        await #expect(throws: SignInError.loopbackFailed(.malformedRequest)) { try await wait.value }
        listener.close()
    }

    @Test("a head over 8 KiB gets 431 and loopbackFailed(oversizedRequest)")
    func oversized() async throws {
        let listener = try LoopbackListener()
        let wait = waiting(listener)
        let huge = "GET /callback?code=" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n"
        let answer = await blocking { RawLoopbackClient.exchange(port: listener.port, Array(huge.utf8)) }
        #expect(answer.hasPrefix("HTTP/1.1 431"))
        await #expect(throws: SignInError.loopbackFailed(.oversizedRequest)) { try await wait.value }
        listener.close()
    }

    @Test("a connection that sends nothing (a browser's preconnect) is not a request: the real one after it is taken")
    func preconnectIgnored() async throws {
        let listener = try LoopbackListener(readDeadline: .milliseconds(200))
        let wait = waiting(listener)
        let idle = try #require(RawLoopbackClient.connect(port: listener.port))
        let closedAtOnce = try #require(RawLoopbackClient.connect(port: listener.port))
        _ = close(closedAtOnce)
        try await Task.sleep(for: .milliseconds(400))   // past the idle connection's read deadline
        let answer = await blocking { RawLoopbackClient.exchange(port: listener.port, Array("GET /callback?code=c&state=s HTTP/1.1\r\n\r\n".utf8)) }
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        let url = try await wait.value
        #expect(url.absoluteString == "http://127.0.0.1:\(listener.port)/callback?code=c&state=s")
        _ = close(idle)
        listener.close()
    }

    @Test("no browser coming back ends the wait with timedOut at the timeout")
    func timeout() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let started = ContinuousClock.now
        await #expect(throws: SignInError.timedOut) {
            try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .milliseconds(300)) { _ in })
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("cancelling the sign-in ends the wait at once with cancelled, and frees the port")
    func cancelled() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let opened = AsyncStream<URL>.makeStream()
        let task = Task {
            try await session.signIn(with: .browser(provider, scopes: ["openid"], timeout: .seconds(60)) { url in
                opened.continuation.yield(url)
            })
        }
        var port: Int?
        for await url in opened.stream {
            port = FakeOIDCServer.query(of: url)["redirect_uri"].flatMap { URL(string: $0)?.port }
            break
        }
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let error = try await #require(throws: SignInError.self) { try await task.value }
        #expect(error == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .seconds(2))
        #expect(await RawLoopbackClient.refusesConnections(port: try #require(port)))
    }

    @Test("an error thrown by open ends the flow as frontEndFailed and closes the listener")
    func openFails() async throws {
        struct NoBrowser: Error {}
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .browser(provider, scopes: [], timeout: .seconds(60)) { _ in throw NoBrowser() })
        }
        #expect(error == .frontEndFailed && error.underlying is NoBrowser)
    }

    @Test("a fixed redirect port (a server that matches redirect URIs exactly): the redirect URI names it, twice in a row")
    func fixedRedirectPort() async throws {
        let port = try Self.portOutsideTheEphemeralRange()
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        for _ in 0..<2 {
            let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
            let result = try await session.signIn(with: .browser(provider, scopes: ["openid"], redirectPort: port, timeout: .seconds(20)) { url in
                let redirect = FakeOIDCServer.query(of: url)["redirect_uri"]
                #expect(redirect == "http://127.0.0.1:\(port)/callback")
                let callback = fake.approve(url)
                Task { _ = try await URLSession.shared.data(from: callback) }
            })
            #expect(result.accountID == "user-42")
        }
    }

    /// A port that was free a moment ago, below Linux's ephemeral range (32768–60999): a
    /// port the system picked for a listener could be given to another test's connection or
    /// listener as soon as it is closed, before the flow binds it again.
    static func portOutsideTheEphemeralRange() throws -> UInt16 {
        for _ in 0..<50 {
            let candidate = UInt16.random(in: 20_000..<32_000)
            if let probe = try? LoopbackListener(port: candidate) {
                probe.close()
                return candidate
            }
        }
        throw SignInError(.loopbackFailed)
    }

    @Test("a fixed redirect port another program listens on ends at once with loopbackFailed(.bind), naming the port, before the browser opens")
    func fixedRedirectPortTaken() async throws {
        let other = try LoopbackListener()
        defer { other.close() }
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .browser(provider, scopes: [], redirectPort: UInt16(other.port), timeout: .seconds(60)) { _ in
                Issue.record("the browser was opened")
            })
        }
        #expect(error == .loopbackFailed(.bind))
        #expect(error.errorDescription?.contains("127.0.0.1:\(other.port)") == true, "\(error.errorDescription ?? "")")
    }
}
