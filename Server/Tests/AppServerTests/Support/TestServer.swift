import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing

extension TestClock {
    /// The clock as the server's time source.
    var timeSource: TimeSource {
        TimeSource { [self] in now }
    }
}

/// Builds an in-process server and runs `body` against it.
enum TestServer {
    static let secret = "test-secret-test-secret-test-secret-0123456789-long-enough-for-hs512"
    static let adminEmail = "admin@example.com"
    static let adminPassword = "admin-password"

    static func configuration(
        testMode: Bool = false, accessTokenLifetime: Int = 900, refreshTokenLifetime: Int = 3600,
        refreshReuseGrace: Int = 30, database: DatabaseLocation = .memory
    ) -> ServerConfiguration {
        ServerConfiguration(
            host: "127.0.0.1", port: 0, database: database, jwtSecret: secret,
            accessTokenLifetime: .seconds(accessTokenLifetime), refreshTokenLifetime: .seconds(refreshTokenLifetime),
            refreshReuseGrace: .seconds(refreshReuseGrace),
            admin: AdminAccount(email: adminEmail, password: adminPassword), bcryptCost: 4, testMode: testMode
        )
    }

    static func run<T: Sendable>(
        _ setup: TestingSetup = .router,
        configuration: ServerConfiguration = TestServer.configuration(),
        clock: TestClock? = nil,
        _ body: @Sendable (API) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let app = try await AppServer.build(configuration: configuration, clock: clock?.timeSource ?? .system, logger: logger)
        return try await app.test(setup) { client in
            try await body(API(client: client))
        }
    }
}

/// Small helpers over HummingbirdTesting's client.
struct API: Sendable {
    let client: any TestClientProtocol

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func signUp(_ email: String, password: String = "password-1", nickname: String = "nick") async throws -> AuthSessionDTO {
        let response = try await send(.post, "/v1/auth/sign-up", json: #"{"email":"\#(email)","password":"\#(password)","nickname":"\#(nickname)"}"#)
        #expect(response.status == .created)
        return try response.decode(AuthSessionDTO.self)
    }

    func signIn(_ email: String, password: String) async throws -> AuthSessionDTO {
        let response = try await send(.post, "/v1/auth/sign-in", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        #expect(response.status == .ok)
        return try response.decode(AuthSessionDTO.self)
    }

    func signInAdmin() async throws -> AuthSessionDTO {
        try await signIn(TestServer.adminEmail, password: TestServer.adminPassword)
    }

    func refresh(_ refreshToken: String) async throws -> TestResponse {
        try await send(.post, "/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    func createPost(token: String, content: String = "hello", isAnonymous: Bool = false) async throws -> PostDTO {
        let response = try await send(.post, "/v1/posts", token: token, json: #"{"content":"\#(content)","isAnonymous":\#(isAnonymous)}"#)
        #expect(response.status == .created)
        return try response.decode(PostDTO.self)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONBody.makeDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// The contract's error code, if the body is an error.
    var errorCode: String? { (try? decode(ErrorBodyDTO.self))?.error.code }
    var errorMessage: String? { (try? decode(ErrorBodyDTO.self))?.error.message }
}
