import Foundation
import NetworkService
import Testing

@Suite("Status classification")
struct StatusClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let status: Int
        let headers: [String: String]
        let authenticationFailure: Bool
        let transient: Bool
        var testDescription: String { "HTTP \(status)\(headers.isEmpty ? "" : " with WWW-Authenticate")" }
    }

    static let bearerChallenge = ["WWW-Authenticate": #"Bearer error="invalid_token""#]

    static let cases: [Case] = [
        Case(status: 400, headers: [:], authenticationFailure: false, transient: false),
        Case(status: 401, headers: bearerChallenge, authenticationFailure: true, transient: false),
        Case(status: 401, headers: [:], authenticationFailure: true, transient: false),
        Case(status: 403, headers: [:], authenticationFailure: false, transient: false),
        Case(status: 404, headers: [:], authenticationFailure: false, transient: false),
        Case(status: 408, headers: [:], authenticationFailure: false, transient: true),
        Case(status: 409, headers: [:], authenticationFailure: false, transient: false),
        Case(status: 429, headers: [:], authenticationFailure: false, transient: true),
        Case(status: 500, headers: [:], authenticationFailure: false, transient: true),
        Case(status: 503, headers: [:], authenticationFailure: false, transient: true),
    ]

    private func failure(status: Int, headers: [String: String] = [:], code: String = "some_code") async throws -> NetworkError {
        let transport = TestTransport(always: .json(status, #"{"error":{"code":"\#(code)","message":"m"}}"#, headers: headers))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        do {
            try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t"))
        } catch {
            return error
        }
        throw UnexpectedSuccess(status: status)
    }

    @Test("each status is classified as an authentication failure or transient as it should be", arguments: cases)
    func classification(testCase: Case) async throws {
        let error = try await failure(status: testCase.status, headers: testCase.headers)
        #expect(error.kind == .httpStatus)
        #expect(error.isAuthenticationFailure == testCase.authenticationFailure)
        #expect(error.isTransient == testCase.transient)
    }

    @Test("2xx statuses are successes", arguments: [200, 201, 204])
    func successes(status: Int) async throws {
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .status(status)))
        try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t"))
    }

    @Test("the strict policy needs a Bearer challenge; the default does not")
    func strictPolicy() async throws {
        let withChallenge = try await failure(status: 401, headers: Self.bearerChallenge)
        let without = try await failure(status: 401)
        #expect(withChallenge.authenticateChallenge == #"Bearer error="invalid_token""#)
        #expect(withChallenge.isAuthenticationFailure(under: .strictBearerChallenge))
        #expect(!without.isAuthenticationFailure(under: .strictBearerChallenge))
        #expect(without.isAuthenticationFailure(under: .default))
    }

    @Test("a policy can name other statuses and server codes, but 403 never counts")
    func customPolicy() async throws {
        let policy = AuthenticationFailurePolicy(statusCodes: [401, 403, 419], serverErrorCodes: [.tokenExpired])
        #expect(try await failure(status: 419, code: "token_expired").isAuthenticationFailure(under: policy))
        #expect(try await !failure(status: 401, code: "invalid_credentials").isAuthenticationFailure(under: policy))
        #expect(try await !failure(status: 403, code: "token_expired").isAuthenticationFailure(under: policy))
    }

    @Test("transport failures are transient except TLS, refusals and unknown ones",
          arguments: [(TransportError.Kind.cannotConnect, true), (.timedOut, true), (.connectionLost, true),
                      (.secureConnectionFailed, false), (.redirectRefused, false), (.responseTooLarge, false), (.other, false)])
    func transportKinds(kind: TransportError.Kind, transient: Bool) async throws {
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport { _ in throw TransportError(kind) })
        let error = await #expect(throws: NetworkError.self) { try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t")) }
        #expect(error?.isTransient == transient)
        #expect(error?.isAuthenticationFailure == false)
    }
}

struct UnexpectedSuccess: Error {
    let status: Int
}
