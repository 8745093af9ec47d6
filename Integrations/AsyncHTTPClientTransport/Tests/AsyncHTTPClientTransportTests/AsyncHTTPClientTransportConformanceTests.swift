import AppSDKTesting
import AsyncHTTPClientTransport
import Foundation
import NetworkService
import Testing

/// The SDK's shared transport suite (AppSDKTesting's `TransportConformance`), the same
/// scenarios under the same names as the SDK's `URLSessionTransportTests`, run against the
/// AsyncHTTPClient transport over its shared client.
@Suite("AsyncHTTPClient transport against a loopback HTTP server")
struct AsyncHTTPClientTransportConformanceTests {
    let conformance = TransportConformance { timeout in AsyncHTTPClientTransport(timeout: timeout) }

    @Test("a GET's query and bearer token reach the server as written")
    func queryAndBearerToken() async throws { try await conformance.queryAndBearerTokenArriveAsWritten() }

    @Test("header fields and a body go and come back intact")
    func headersAndBody() async throws { try await conformance.headersAndBodyRoundTrip() }

    @Test("a megabyte goes up and comes back byte for byte")
    func largeBodies() async throws { try await conformance.largeBodiesRoundTrip() }

    @Test("a 204 comes back with an empty body")
    func noContent() async throws { try await conformance.noContentHasAnEmptyBody() }

    @Test("a 401, 403, 404, 500 or 503 is returned, not thrown")
    func errorStatuses() async throws { try await conformance.errorStatusesAreReturnedNotThrown() }

    @Test("a 401 with a Bearer challenge is an authentication failure with its code")
    func unauthorized() async throws { try await conformance.unauthorizedIsAnAuthenticationFailure() }

    @Test("a redirect is followed to the final answer")
    func redirect() async throws { try await conformance.redirectsAreFollowed() }

    @Test("a port nobody listens on is cannot-connect, at once")
    func refused() async throws { try await conformance.refusedConnectionCannotConnect() }

    @Test("a connection dropped before the answer is connection-lost")
    func droppedConnection() async throws { try await conformance.droppedConnectionIsConnectionLost() }

    @Test("a body cut short before its Content-Length is connection-lost")
    func truncatedBody() async throws { try await conformance.truncatedBodyIsConnectionLost() }

    @Test("a server that does not answer in time is a timeout")
    func timeout() async throws { try await conformance.slowServerTimesOut() }

    @Test("cancelling the task cancels the request")
    func cancellation() async throws { try await conformance.cancellingTheTaskCancelsTheRequest() }

    @Test("endless redirects are an error that says so")
    func endlessRedirects() async throws { try await conformance.endlessRedirectsFail() }

    @Test("errors never show the Authorization header or another secret")
    func secrets() async throws { try await conformance.errorsNeverShowTheAuthorizationHeader() }
}
