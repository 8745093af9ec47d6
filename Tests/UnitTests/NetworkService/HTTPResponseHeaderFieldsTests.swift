import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import NetworkService
import Testing

/// A response `URLSessionTransport` received keeps `URLSession`'s response for its header
/// fields (issue #24: copying them all cost more than the rest of the transport's work); it
/// must read as a head built from a dictionary does.
@Suite("A response head URLSession received reads as one built from its fields")
struct HTTPResponseHeaderFieldsTests {
    static let fields = ["Content-Type": "application/json", "Retry-After": "120",
                         "WWW-Authenticate": #"Bearer error="invalid_token""#]

    static func received(statusCode: Int = 401) throws -> HTTPResponse {
        let response = try #require(HTTPURLResponse(url: URL(string: "https://api.example.com/v1/posts")!,
                                                    statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: fields))
        return HTTPResponse(statusCode: statusCode, fields: .urlResponse(.init(response: response)))
    }

    @Test("one field is found whatever the case of its name, and a missing one is nil")
    func looksUpOneFieldCaseInsensitively() throws {
        let head = try Self.received()
        #expect(head.value(forHeaderField: "retry-after") == "120")
        #expect(head.value(forHeaderField: "WWW-AUTHENTICATE") == #"Bearer error="invalid_token""#)
        #expect(head.value(forHeaderField: "Date") == nil)
        #expect(head.date == nil)
    }

    @Test("every field is there, and the head equals one built from the same fields")
    func hasEveryFieldAndEqualsTheDictionaryForm() throws {
        let head = try Self.received()
        #expect(head.headerFields == Self.fields)
        #expect(head == HTTPResponse(statusCode: 401, headerFields: Self.fields))
        #expect(head != HTTPResponse(statusCode: 401, headerFields: ["Content-Type": "application/json"]))
        #expect(head != HTTPResponse(statusCode: 400, headerFields: Self.fields))
    }

    @Test("changing its fields changes them, as for a head built from a dictionary")
    func fieldsCanBeChanged() throws {
        var head = try Self.received()
        head.headerFields["Retry-After"] = "5"
        #expect(head.value(forHeaderField: "retry-after") == "5")
        #expect(head.value(forHeaderField: "Content-Type") == "application/json")
        head.headerFields = [:]
        #expect(head.value(forHeaderField: "Content-Type") == nil)
    }

    @Test("an error built from it has its challenge and its Retry-After")
    func errorsReadItsFields() async throws {
        let head = try Self.received(statusCode: 401)
        let server = try Server(baseURL: "https://api.example.com", transport: ReceivedHeadTransport(head: head))
        let error = await #expect(throws: NetworkError.self) {
            try await server.send(SampleEndpoint.remove(id: 1), accessToken: AccessToken("t"))
        }
        #expect(error?.retryAfter == 120)
        #expect(error?.authenticateChallenge == #"Bearer error="invalid_token""#)
    }

    /// Answers every request with `head` and an empty JSON object.
    struct ReceivedHeadTransport: HTTPTransport {
        let head: HTTPResponse
        func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) { (Data("{}".utf8), head) }
    }
}
