import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("An app that shows localizedDescription shows the SDK's own message")
struct ErrorMessageTests {
    static let errors: [any Error & CustomStringConvertible] = [
        NetworkError(kind: .httpStatus, method: .get, path: "/v1/members/me", statusCode: 503),
        TransportError(.timedOut),
        TokenStoreError(kind: .unavailable, path: "postgres://db", reason: "the database is down"),
        SessionError(.refreshFailed),
    ]

    @Test("every public error type's localizedDescription is its description, not Foundation's generic sentence",
          arguments: errors.indices)
    func localizedDescriptionIsTheMessage(index: Int) {
        let error = Self.errors[index]
        #expect(error.localizedDescription == error.description, "\(type(of: error))")
    }

    @Test("a base URL the server refuses is explained by localizedDescription too")
    func invalidServerURL() {
        let error = #expect(throws: NetworkError.self) { try Server(baseURL: "ftp://example.com") }
        #expect(error?.localizedDescription == error?.description)
        #expect(error?.localizedDescription.contains("the scheme must be http or https") == true)
    }
}
