import Foundation
import NetworkService
import Testing

@Suite("Secrets in errors and descriptions")
struct RedactionTests {
    static let token = AccessToken("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQifQ.SECRETSIGNATURE42")
    static let refreshToken = "rt_9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc"

    /// Replies that echo the credentials back in every place an error could show them.
    static let replies: [TestTransport.Reply] = [
        .json(401, #"{"error":{"code":"invalid_token","message":"bad token \#(token.rawValue)"}}"#,
              headers: ["WWW-Authenticate": #"Bearer error="invalid_token", error_description="token \#(token.rawValue) expired""#]),
        .json(500, "<html>Authorization: Bearer \(token.rawValue) refresh=\(refreshToken)</html>"),
        .json(200, #"{"accessToken":"\#(token.rawValue)","refreshToken":"\#(refreshToken)""#),
        .json(400, #"{"error":{"code":"invalid_request","message":"refreshToken \#(refreshToken) is odd"}}"#),
    ]

    @Test("no error description contains the token it was given, whatever the server echoes", arguments: replies)
    func errorsNeverShowTheToken(reply: TestTransport.Reply) async throws {
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: reply))
        do {
            let _: Sample = try await server.send(SampleEndpoint.item(name: "x"), accessToken: Self.token)
            Issue.record("expected a failure")
        } catch {
            for text in [error.description, String(reflecting: error), "\(error)", error.localizedDescription,
                         error.serverMessage ?? "", error.responseSnippet ?? "", error.authenticateChallenge ?? ""] {
                #expect(!text.contains(Self.token.rawValue))
                #expect(!text.contains("SECRETSIGNATURE42"))
                #expect(!text.contains(Self.refreshToken))
            }
        }
    }

    @Test("a request's description and dump redact the Authorization header")
    func requestDescription() throws {
        let server = try Server(baseURL: "https://api.example.com", transport: TestTransport(always: .status(204)))
        let request = try server.makeRequest(for: SampleEndpoint.remove(id: 1), accessToken: Self.token)
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, request.debugDescription, "\(request)", dumped] {
            #expect(!text.contains(Self.token.rawValue))
            #expect(text.contains("Authorization: <redacted>") || text.contains("<redacted>"))
        }
    }

    @Test("an access token prints as redacted")
    func accessTokenDescription() {
        var dumped = ""
        dump(Self.token, to: &dumped)
        for text in [Self.token.description, String(reflecting: Self.token), "\(Self.token)", dumped] {
            #expect(!text.contains("SECRETSIGNATURE42"))
        }
    }
}
