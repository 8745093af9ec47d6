import AppSDKTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import Testing

/// `URLSessionTransport` over a session of yours, or one made from your configuration, and
/// with absurd settings.
@Suite("URLSession transport: sessions of yours and absurd settings")
struct URLSessionTransportOptionsTests {
    /// A transport over a plain session of the caller's, for every request (the session is
    /// never released: the tests are short-lived).
    static let callersSession = URLSession(configuration: .ephemeral)
    let callers = TransportConformance { timeout, maximumResponseBytes in
        URLSessionTransport(session: Self.callersSession, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }
    let configured = TransportConformance { timeout, maximumResponseBytes in
        URLSessionTransport(configuration: .ephemeral, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    @Test("over a session of yours, a redirect to another origin of a credential is refused")
    func callersSessionRefusesCrossOriginRedirects() async throws { try await callers.crossOriginRedirectOfACredentialIsRefused() }

    @Test("over a session of yours, redirects within the origin, or without a credential, are followed")
    func callersSessionFollowsOtherRedirects() async throws {
        try await callers.sameOriginRedirectKeepsItsCredential()
        try await callers.crossOriginRedirectWithoutACredentialIsFollowed()
    }

    @Test("over a session of yours, a trickling server cannot stretch the timeout")
    func callersSessionDeadline() async throws { try await callers.tricklingServerCannotStretchTheTimeout() }

    @Test("over a session of yours, a finished body over the limit is refused; one at the limit accepted")
    func callersSessionLimit() async throws { try await callers.bodyOverTheLimitIsRefusedAndAtTheLimitAccepted() }

    @Test("over a session of yours, cancelling the task cancels the request")
    func callersSessionCancellation() async throws { try await callers.cancellingTheTaskCancelsTheRequest() }

    @Test("over a session made from your configuration, an endless body is refused and no longer read")
    func configuredSessionLimit() async throws { try await configured.endlessBodyIsRefusedPastTheLimit() }

    @Test("over a session made from your configuration, redirects are judged as with the default session")
    func configuredSessionRedirects() async throws { try await configured.crossOriginRedirectOfACredentialIsRefused() }

    @Test("a credential in the session configuration's headers counts: a plain GET through it is not followed to another origin, and the other origin receives nothing", arguments: [false, true])
    func configurationHeadersAreJudged(callersSession: Bool) async throws {
        let other = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { other.stop() }
        let http = try LoopbackHTTPServer { _ in .respond(status: 302, headers: ["Location": other.baseURL + "/v1/elsewhere"]) }
        defer { http.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer configured-secret-token"]
        let transport = callersSession
            ? URLSessionTransport(session: URLSession(configuration: configuration), timeout: 5)
            : URLSessionTransport(configuration: configuration, timeout: 5)
        let request = HTTPRequest(method: .get, url: try #require(URL(string: http.baseURL + "/v1/posts")))
        do {
            let (_, response) = try await transport.send(request)
            Issue.record("expected a refused redirect, got HTTP \(response.statusCode)")
        } catch let error as TransportError {
            #expect(error.kind == .redirectRefused, "\(error)")
            #expect(!String(describing: error).contains("configured-secret-token"))
        }
        #expect(other.requests.count == 0, "another origin received \(other.requests.map(\.target))")
    }

    @Test("an absurd timeout is cut to a day, NaN is the default, zero or less a millisecond; a negative size limit is 0")
    func absurdSettingsAreBounded() {
        #expect(URLSessionTransport(timeout: 1e18).timeout == 86_400)
        #expect(URLSessionTransport(timeout: .infinity).timeout == 86_400)
        #expect(URLSessionTransport(timeout: .nan).timeout == 30)
        #expect(URLSessionTransport(timeout: 0).timeout == 0.001)
        #expect(URLSessionTransport(timeout: -4).timeout == 0.001)
        #expect(URLSessionTransport(timeout: 2.5).timeout == 2.5)
        #expect(URLSessionTransport(maximumResponseBytes: -1).maximumResponseBytes == 0)
        #expect(URLSessionTransport().maximumResponseBytes == 16 * 1024 * 1024)
    }

    @Test("a transport with a 1e18-second timeout, or over a configuration with one, sends instead of crashing in FoundationNetworking")
    func hugeTimeoutSends() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let request = HTTPRequest(method: .get, url: URL(string: http.baseURL + "/v1/ping")!)
        let (_, response) = try await URLSessionTransport(timeout: 1e18).send(request)
        #expect(response.statusCode == 204)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1e18
        let (_, configured) = try await URLSessionTransport(configuration: configuration).send(request)
        #expect(configured.statusCode == 204)
        #expect(configuration.timeoutIntervalForRequest == 1e18, "the caller's configuration is left as it was")
    }
}
