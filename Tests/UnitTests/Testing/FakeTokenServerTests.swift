import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import Testing

@Suite("The harness's one scriptable fake token server: origins, not-found answers, slow answers, forms")
struct FakeTokenServerTests {
    private static func status(_ reply: FakeTokenServer.Reply) -> Int? {
        if case let .respond(status, _, _) = reply { return status }
        return nil
    }

    private static func body(_ reply: FakeTokenServer.Reply) -> String? {
        if case let .respond(_, _, body) = reply { return String(decoding: body, as: UTF8.self) }
        return nil
    }

    @Test("a route bound to an origin answers only there, before a route of any origin; other origins get the not-found answer")
    func originsBindRoutes() {
        let fake = FakeTokenServer(notFound: .json(404, #"{"error":"not_found"}"#))
        fake.route(.get, "/me", origin: "https://api.example.test") { _ in .status(200) }
        fake.route(.get, "/token") { _ in .status(201) }
        fake.route(.get, "/token", origin: "https://auth.example.test") { _ in .status(202) }
        func status(_ path: String, _ origin: String?) -> Int? {
            Self.status(fake.answerNow(.init(method: "GET", target: path, origin: origin)))
        }
        #expect(status("/me", "https://api.example.test") == 200)
        #expect(status("/me", "https://auth.example.test") == 404)
        #expect(status("/me", nil) == 404)
        #expect(Self.body(fake.answerNow(.init(method: "GET", target: "/me"))) == #"{"error":"not_found"}"#)
        #expect(status("/token", "https://auth.example.test") == 202)
        #expect(status("/token", "https://api.example.test") == 201)
    }

    @Test("through the test transport, a request reaches its origin's route, and a delayed answer arrives after its delay")
    func transportPassesOriginAndWaits() async throws {
        let fake = FakeTokenServer()
        fake.route(.get, "/slow", origin: "https://api.example.test:8443") { _ in .delayed(0.3, .status(204)) }
        let transport = TestTransport(serving: fake)
        let start = ContinuousClock.now
        let (_, response) = try await transport.send(HTTPRequest(method: .get, url: URL(string: "https://api.example.test:8443/slow?x=1")!))
        #expect(response.statusCode == 204)
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(fake.requests.map(\.origin) == ["https://api.example.test:8443"])
    }

    @Test("a form field without a value reads as empty, not as missing")
    func emptyFormValues() {
        let request = FakeTokenServer.Request(method: "POST", target: "/token", body: Data("a=&b&c=1+2%26".utf8))
        #expect(request.form == ["a": "", "b": "", "c": "1 2&"])
    }
}
