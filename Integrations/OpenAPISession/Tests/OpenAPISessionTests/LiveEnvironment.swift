import AppAPIClient
import AppSDKHarness
import Foundation
import HTTPTypes
import OpenAPIAdopter
import OpenAPIRuntime
import OpenAPIURLSession
import Testing
import TokenStore

/// The reference server that scripts/test starts (`APP_SERVER_URL`, test mode), reached with
/// the generated client.
enum LiveEnvironment {
    static let password = "correct horse battery"

    /// The server's base URL.
    static func serverURL() throws -> URL {
        let text = try LiveServerEnvironment.url()
        guard let url = URL(string: text) else { throw TestSetupError("APP_SERVER_URL is not a URL: \(text)") }
        return url
    }

    /// The generated client without the session: for the test-mode routes and sign-up.
    static func plainClient(_ serverURL: URL) -> Client {
        Client(serverURL: serverURL, transport: URLSessionTransport())
    }

    /// Signs up a fresh member on the server at `serverURL` and returns their email.
    static func signUp(at serverURL: URL) async throws -> String {
        let email = LiveServerEnvironment.uniqueEmail("openapi")
        _ = try await plainClient(serverURL).signUp(body: .json(.init(email: email, password: password, nickname: "openapi"))).created
        return email
    }

    /// docs/OPENAPI.md's client over `store`, signed in as a fresh member of the server at `serverURL`.
    static func signedIn(at serverURL: URL, store: any TokenStore = InMemoryTokenStore()) async throws -> OpenAPIAdopter {
        let email = try await signUp(at: serverURL)
        let adopter = try OpenAPIAdopter(serverURL: serverURL, store: store)
        try await adopter.startSession(email: email, password: password)
        return adopter
    }

    /// The server's counters.
    static func counters(_ serverURL: URL) async throws -> Components.Schemas.TestCounters {
        try await plainClient(serverURL).testCounters().ok.body.json
    }

    /// Expires every access token issued so far, at the server.
    static func expireAccessTokens(_ serverURL: URL) async throws {
        _ = try await plainClient(serverURL).testExpireAccessTokens().noContent
    }

    /// Zeroes the server's counters.
    static func resetCounters(_ serverURL: URL) async throws {
        _ = try await plainClient(serverURL).testReset().noContent
    }
}

/// A middleware that records every attempt that reaches the transport: its operation, whether
/// it carried a token, and its body (read only when it can be read again).
final class AttemptRecorder: ClientMiddleware {
    struct Attempt: Sendable, Equatable {
        var operationID: String
        var hadToken: Bool
        var body: String?
        var status: Int
    }
    private let recorded = LockedValue<[Attempt]>([])
    var attempts: [Attempt] { recorded.withLock { $0 } }

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        var text: String?
        if let body, body.iterationBehavior == .multiple { text = try await String(collecting: body, upTo: 1 << 20) }
        let (response, responseBody) = try await next(request, body, baseURL)
        let attempt = Attempt(operationID: operationID, hadToken: request.headerFields[.authorization] != nil, body: text,
                              status: response.status.code)
        recorded.withLock { $0.append(attempt) }
        return (response, responseBody)
    }
}

/// A middleware that turns every request body into a stream that can be read once, as an
/// upload from a file would be (the generated code buffers JSON bodies).
struct StreamingBodies: ClientMiddleware {
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, baseURL) }
        let bytes = try await [UInt8](collecting: body, upTo: 1 << 20)
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice(bytes))
            continuation.finish()
        }
        return try await next(request, HTTPBody(stream, length: .known(Int64(bytes.count)), iterationBehavior: .single), baseURL)
    }
}
