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

    @Test("over a session of yours, a 401 with a Basic challenge comes back at once with its challenge (on Linux without its body)")
    func callersSessionUnauthorized() async throws {
        let body = #"{"error":"invalid_client"}"#
        let http = try LoopbackHTTPServer { _ in .json(401, body, headers: ["WWW-Authenticate": #"Basic realm="x""#]) }
        defer { http.stop() }
        let transport = URLSessionTransport(session: Self.callersSession, timeout: 6)
        let started = ContinuousClock.now
        let (data, response) = try await transport.send(HTTPRequest(method: .post, url: try #require(URL(string: http.baseURL + "/token")),
                                                                    body: Data("grant_type=client_credentials".utf8)))
        let waited = ContinuousClock.now - started
        #expect(response.statusCode == 401)
        #expect(response.value(forHeaderField: "www-authenticate") == #"Basic realm="x""#)
        #if canImport(FoundationNetworking)
        #expect(data.isEmpty || data == Data(body.utf8))
        #else
        #expect(data == Data(body.utf8))
        #endif
        #expect(waited < .seconds(3), "answered after \(waited)")
    }

    @Test("over a session of yours, its delegate still answers a Basic challenge: the credential it gives is sent")
    func callersDelegateAnswersChallenges() async throws {
        let http = try LoopbackHTTPServer { request in
            request.header("Authorization") == "Basic dXNlcjpwYXNz"   // user:pass
                ? .json(200, #"{"ok":true}"#) : .json(401, "{}", headers: ["WWW-Authenticate": #"Basic realm="x""#])
        }
        defer { http.stop() }
        let session = URLSession(configuration: .ephemeral, delegate: BasicCredentialDelegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await URLSessionTransport(session: session, timeout: 6)
            .send(HTTPRequest(method: .get, url: try #require(URL(string: http.baseURL + "/v1/basic"))))
        #expect(response.statusCode == 200)
        #expect(http.requests.map { $0.header("Authorization") } == [nil, "Basic dXNlcjpwYXNz"])
    }

    @Test("over a session made from your configuration, a 401 comes back at once with its body, whatever its challenge")
    func configuredSessionUnauthorized() async throws { try await configured.unauthorizedWithAnyChallengeIsReturnedAtOnce() }

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

/// A session delegate that answers a first Basic challenge with `user` and `pass`, and any
/// other with default handling.
private final class BasicCredentialDelegate: NSObject, URLSessionTaskDelegate {
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic,
              challenge.previousFailureCount == 0 else { return completionHandler(.performDefaultHandling, nil) }
        completionHandler(.useCredential, URLCredential(user: "user", password: "pass", persistence: .none))
    }
}
