import AppSDKTesting
import Foundation
import NetworkService
import Testing

/// The shared transport suite (AppSDKTesting's `TransportConformance`) run against
/// `URLSessionTransport`; `Integrations/AsyncHTTPClientTransport` runs the same scenarios,
/// under the same names, against its transport.
@Suite("URLSession transport against a loopback HTTP server")
struct URLSessionTransportTests {
    let conformance = TransportConformance { timeout, maximumResponseBytes in
        URLSessionTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

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

    @Test("a 401 comes back at once with its body, whether it challenges Basic, Digest or Bearer")
    func unauthorizedWithAnyChallenge() async throws { try await conformance.unauthorizedWithAnyChallengeIsReturnedAtOnce() }

    @Test("a redirect is followed to the final answer")
    func redirect() async throws { try await conformance.redirectsAreFollowed() }

    @Test("a redirect to another origin of a request with a credential is refused; the other origin gets nothing")
    func crossOriginRedirectRefused() async throws { try await conformance.crossOriginRedirectOfACredentialIsRefused() }

    @Test("a redirect to another origin of a request without a credential is followed")
    func crossOriginRedirectFollowed() async throws { try await conformance.crossOriginRedirectWithoutACredentialIsFollowed() }

    @Test("a redirect within the origin keeps the bearer token and the body")
    func sameOriginRedirect() async throws { try await conformance.sameOriginRedirectKeepsItsCredential() }

    @Test("a DPoP proof and a DPoP token reach the server byte for byte, and its DPoP-Nonce comes back")
    func dpopProof() async throws { try await conformance.dpopProofArrivesAsSentAndItsNonceComesBack() }

    @Test("a request carrying a DPoP proof follows no redirect, not even within its origin")
    func dpopRedirectRefused() async throws { try await conformance.redirectOfADPoPProofIsRefused() }

    @Test("a body that never ends is refused past the limit, and the client stops reading")
    func endlessBody() async throws { try await conformance.endlessBodyIsRefusedPastTheLimit() }

    @Test("a Content-Length over the limit is refused at the head")
    func announcedOversizedBody() async throws { try await conformance.announcedOversizedBodyIsRefusedAtTheHead() }

    @Test("a body over the limit is refused; one of exactly the limit is accepted")
    func bodyAtAndOverTheLimit() async throws { try await conformance.bodyOverTheLimitIsRefusedAndAtTheLimitAccepted() }

    @Test("a server trickling a byte every 200 ms cannot stretch a 1-second timeout")
    func tricklingServer() async throws { try await conformance.tricklingServerCannotStretchTheTimeout() }

    @Test("an absurd Retry-After is bounded to a day, and the error prints")
    func absurdRetryAfter() async throws { try await conformance.absurdRetryAfterIsBounded() }

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

    @Test("a task cancelled before it sends throws at once")
    func cancelledBeforeSending() async throws { try await conformance.cancellingBeforeSendingThrowsAtOnce() }

    @Test("endless redirects are an error that says so")
    func endlessRedirects() async throws { try await conformance.endlessRedirectsFail() }

    @Test("errors never show the Authorization header or another secret")
    func secrets() async throws { try await conformance.errorsNeverShowTheAuthorizationHeader() }
}
