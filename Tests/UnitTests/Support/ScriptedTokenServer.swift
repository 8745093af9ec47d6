import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing

/// A JSON token server for the records' and retries' tests, scripted on the harness's
/// ``FakeTokenServer``: `POST /token/refresh` answers from a script (then rotates), `GET /me`
/// accepts only the latest access token. Every token it issues is named after a counter, so
/// that tests can look for them in records.
final class ScriptedTokenServer: Sendable {
    /// One scripted answer of the refresh endpoint.
    enum Answer: Sendable, CustomTestStringConvertible {
        /// Rotate: a new access and refresh token, valid for 900 s.
        case rotate
        /// Rotate, then fail as if the answer was lost (the connection dropped after sending).
        case rotateThenDrop
        /// Answer with this status, body and headers.
        case reply(TestTransport.Reply)
        /// No answer: the transport fails so.
        case transport(TransportError.Kind)

        var testDescription: String {
            switch self {
            case .rotate: "rotation"
            case .rotateThenDrop: "rotation whose answer is lost"
            case let .reply(reply): "HTTP \(reply.status)\(reply.headers["Retry-After"].map { " Retry-After: \($0)" } ?? "")"
            case let .transport(kind): "\(kind)"
            }
        }

        /// The fake's form of this answer.
        var scripted: FakeTokenServer.Scripted {
            switch self {
            case .rotate: .route
            case .rotateThenDrop: .routeThen(.fail(.connectionLost))
            case let .reply(reply): .reply(.respond(status: reply.status, headers: reply.headers, body: reply.body))
            case let .transport(kind): .reply(.fail(kind))
            }
        }
    }

    private struct Issued {
        var count = 0
        var current: (access: String, refresh: String)?

        mutating func issue() -> (access: String, refresh: String) {
            count += 1
            let pair = (access: "secret-access-\(count)", refresh: "secret-refresh-\(count)")
            current = pair
            return pair
        }
    }

    static let refreshPath = "/token/refresh"
    let fake = FakeTokenServer()
    let transport: TestTransport
    private let issued = TestMutex(Issued())
    /// When set, `GET /me` refuses every access token (a server in a refresh loop).
    let refusesEveryAccessToken = TestMutex(false)
    /// Called at the start of each refresh request (a gate, say).
    let onRefresh = TestMutex<(@Sendable () async -> Void)?>(nil)

    init() {
        transport = TestTransport(serving: fake)
        fake.route(.get, "/me") { [issued, refusesEveryAccessToken] request in
            let current = issued.withLock { $0.current?.access }
            if refusesEveryAccessToken.withLock({ $0 }) { return .json(401, #"{"detail":"refused"}"#) }
            return request.header("Authorization") == "Bearer \(current ?? "-")"
                ? .json(200, #"{"name":"kim"}"#) : .json(401, #"{"detail":"expired"}"#)
        }
        fake.route(.post, Self.refreshPath) { [issued] _ in
            let pair = issued.withLock { $0.issue() }
            return .json(200, #"{"access":"\#(pair.access)","refresh":"\#(pair.refresh)","expires_in":900}"#)
        }
        fake.beforeAnswer { [onRefresh] request in
            if request.path == Self.refreshPath { await onRefresh.withLock { $0 }?() }
        }
    }

    var server: Server { get throws { try Server(baseURL: "https://api.example.com", transport: transport) } }

    /// The JSON preset for this server, every other setting given.
    static var refresh: JSONTokenRefresh {
        JSONTokenRefresh(path: "/token/refresh", refreshTokenField: "refresh", accessTokenKey: "access",
                         refreshTokenKey: "refresh", expiresInKey: "expires_in")
    }

    /// The next answers of the refresh endpoint; once spent, it rotates.
    func script(_ answers: Answer...) { fake.script(.post, Self.refreshPath, answers.map(\.scripted)) }

    var refreshCalls: Int { fake.requests(.post, Self.refreshPath).count }
    /// The refresh tokens presented, in order.
    var presented: [String] { fake.requests(.post, Self.refreshPath).map { $0.json?["refresh"] as? String ?? "" } }

    /// Tokens for a sign-in, valid for 900 s: the server's current pair.
    func signIn() -> Tokens {
        let pair = issued.withLock { $0.issue() }
        return Tokens(accessToken: AccessToken(pair.access), refreshToken: pair.refresh, expiresIn: 900)
    }

    /// Every token issued so far (`access-N`, `refresh-N`).
    var issuedTokens: [String] {
        let count = issued.withLock { $0.count }
        return (1...max(count, 1)).flatMap { ["secret-access-\($0)", "secret-refresh-\($0)"] }
    }
}

/// `GET /me`, answered `{"name": …}`.
struct MeEndpoint: Endpoint {
    struct Me: Decodable, Sendable, Equatable { let name: String }
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/me" }
}

/// Collects an observer's records.
final class RecordCollector: Sendable {
    private let collected = TestMutex<[SessionRecord]>([])

    var observer: SessionObserver { SessionObserver { [self] record in collected.withLock { $0.append(record) } } }
    var records: [SessionRecord] { collected.withLock { $0 } }
    var events: [SessionRecord.Event] { records.map(\.event) }
}
