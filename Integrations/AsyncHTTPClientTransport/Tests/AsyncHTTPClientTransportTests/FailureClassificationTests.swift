import Foundation
import AsyncHTTPClient
import AsyncHTTPClientTransport
import NetworkService
import NIOCore
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("AsyncHTTPClient failures become TransportError kinds as URLError ones do")
struct FailureClassificationTests {
    @Test("timeouts of every stage are timed out", arguments: [
        HTTPClientError.deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout,
    ])
    func timeouts(_ error: HTTPClientError) {
        #expect(AsyncHTTPClientFailure(error).kind == .timedOut)
    }

    @Test("a connection closed by the server, reset or cut short is connection lost")
    func connectionLost() {
        #expect(AsyncHTTPClientFailure(HTTPClientError.remoteConnectionClosed).kind == .connectionLost)
        #expect(AsyncHTTPClientFailure(IOError(errnoCode: ECONNRESET, reason: "read")).kind == .connectionLost)
        #expect(AsyncHTTPClientFailure(ChannelError.eof).kind == .connectionLost)
    }

    @Test("a refused connection is cannot connect")
    func refused() {
        #expect(AsyncHTTPClientFailure(IOError(errnoCode: ECONNREFUSED, reason: "connect")).kind == .cannotConnect)
    }

    @Test("too many redirects is other, and says so")
    func redirects() {
        let failure = AsyncHTTPClientFailure(HTTPClientError.redirectLimitReached)
        #expect(failure.kind == .other)
        #expect(failure.summary == "too many HTTP redirects (AsyncHTTPClient: Redirect limit reached)")
        #expect(AsyncHTTPClientFailure(HTTPClientError.redirectCycleDetected).kind == .other)
    }

    @Test("an app showing the failure's localized description shows the redacted summary")
    func localizedDescription() {
        let failure: any Error = AsyncHTTPClientFailure(HTTPClientError.redirectLimitReached)
        #expect(failure.localizedDescription == "too many HTTP redirects (AsyncHTTPClient: Redirect limit reached)")
    }

    @Test("a body past AsyncHTTPClient's own collection limit is too large, as past the transport's")
    func tooManyBytes() {
        #expect(AsyncHTTPClientFailure(NIOTooManyBytesError(maxBytes: 10)).kind == .responseTooLarge)
    }

    @Test("an invalid header value never appears in the failure, its description or its dump")
    func invalidHeaderValueIsNotShown() {
        let secret = "Bearer s3cr3t\r\nX: y"
        let failure = AsyncHTTPClientFailure(HTTPClientError.invalidHeaderFieldValues([secret]))
        let error = TransportError(failure.kind, underlying: failure)
        var dumped = ""
        dump(error, to: &dumped)
        #expect(failure.summary == "a header field's name or value is not valid (AsyncHTTPClient: Invalid header field values)")
        for text in [String(describing: error), String(reflecting: error), error.cause ?? "", dumped] {
            #expect(!text.contains("s3cr3t"), "\(text)")
        }
    }

    @Test("an error the transport does not know is other, named by its type only")
    func unknown() {
        struct Strange: Error { let detail = "Bearer s3cr3t" }
        let failure = AsyncHTTPClientFailure(Strange())
        #expect(failure.kind == .other)
        #expect(failure.summary == "the request failed (Strange)")
    }
}
