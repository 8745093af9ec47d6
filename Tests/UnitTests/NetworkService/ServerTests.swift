import Foundation
import NetworkService
import Testing

@Suite("Server")
struct ServerTests {
    @Test("a malformed base URL is an error when the server is made",
          arguments: ["", "   ", "not a url", "ftp://example.com", "example.com", "http://", "https://host/?q=1",
                      "https://host/#top", "https://user:pw@host"])
    func malformedBaseURL(text: String) {
        let error = #expect(throws: NetworkError.self) { try Server(baseURL: text) }
        #expect(error?.kind == .invalidServerURL, "\(String(describing: error))")
    }

    @Test("a valid base URL is kept", arguments: ["https://api.example.com", "http://127.0.0.1:8080", "https://h/api/"])
    func validBaseURL(text: String) throws {
        let server = try Server(baseURL: text)
        #expect(server.baseURL.absoluteString == text)
    }

    @Test("the error for a bad URL says what was wrong")
    func errorMessage() {
        do {
            _ = try Server(baseURL: "ftp://example.com")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "invalid server URL \"ftp://example.com\": the scheme must be http or https")
        }
    }

    @Test("the error for a bad URL never shows its user info or query", arguments: [
        "ftp://kim:hunter2secret@example.com", "https://example.com/?token=hunter2secret", "https://example.com/#hunter2secret",
    ])
    func errorHidesSecrets(text: String) {
        do {
            _ = try Server(baseURL: text)
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains("hunter2secret"), "\(error)")
            #expect(error.description.contains("<redacted>"))
        }
    }
}
