import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore

/// Builds the reference server's Hummingbird application.
public enum AppServer {
    /// The application type ``build(configuration:clock:logger:onListening:)`` returns.
    public typealias App = Application<RouterResponder<AppRequestContext>>

    /// Opens the database (migrating and seeding it), creates the configured admin and wires every route.
    ///
    /// - Parameters:
    ///   - configuration: the validated configuration.
    ///   - clock: where token expiry reads the time (tests inject their own).
    ///   - logger: the logger for requests and lifecycle messages.
    ///   - onListening: called with the base URL (`http://127.0.0.1:PORT`) once the server accepts connections.
    /// - Returns: the application; run it with `runService()` (or test it with HummingbirdTesting).
    public static func build(
        configuration: ServerConfiguration,
        clock: TimeSource = .system,
        logger: Logger,
        onListening: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> App {
        try configuration.validate()
        try FileDescriptorLimit.makeRoom(forConnections: configuration.maxConnections)
        let database = try await Database.open(configuration.database, logger: logger)
        do {
            try await EmailNormalization.run(database, logger: logger)
            try await QuestionSeed.seedIfEmpty(database, now: clock.now().wholeSeconds)
            let testMode = configuration.testMode ? TestModeState() : nil
            let accessTokens = await AccessTokens(
                secret: configuration.jwtSecret, lifetime: configuration.accessTokenLifetime,
                clock: clock, generations: testMode?.generations
            )
            let auth = AuthService(
                database: database, accessTokens: accessTokens, passwords: PasswordHasher(cost: configuration.bcryptCost),
                refreshTokenLifetime: configuration.refreshTokenLifetime,
                refreshReuseGrace: configuration.refreshReuseGrace, clock: clock
            )
            if let admin = configuration.admin {
                try await auth.ensureAdmin(admin, logger: logger)
            }
            let services = AppServices(
                database: database, auth: auth, accessTokens: accessTokens, clock: clock, testMode: testMode,
                rateLimiter: configuration.rateLimits.map { RateLimiter(limits: $0, clock: clock) },
                dpop: DPoPGate(settings: configuration.dpop, jwtSecret: configuration.jwtSecret, clock: clock, testMode: testMode)
            )
            return Application(
                router: makeRouter(services: services),
                server: httpServer(configuration),
                configuration: .init(
                    address: .hostname(configuration.host, port: configuration.port), serverName: nil
                ),
                services: [DatabaseService(database: database)],
                onServerRunning: { channel in
                    onListening(baseURL(of: channel, fallbackHost: configuration.host))
                },
                logger: logger
            )
        } catch {
            await database.close()
            throw error
        }
    }

    /// HTTP/1 with the connection limits, the request deadline, the idle timeout and the JSON body
    /// for parser errors.
    static func httpServer(_ configuration: ServerConfiguration) -> HTTPServerBuilder {
        let connections = ConnectionLimitHandler.Counter(
            limit: configuration.maxConnections, perAddressLimit: configuration.maxConnectionsPerAddress
        )
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionLimitHandler(counter: connections), RequestProgressObserver(), ParseErrorBodyHandler()],
            idleTimeout: TimeAmount(configuration.idleTimeout)
        )
        let requestTimeout = TimeAmount(configuration.requestTimeout)
        return HTTPServerBuilder { responder in
            AppHTTPChannel(http1: HTTP1Channel(responder: responder, configuration: http1), requestTimeout: requestTimeout)
        }
    }

    /// The router: request log, test-mode counters and error middleware, then every route collection under `/v1`.
    static func makeRouter(services: AppServices) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        let table = RouteTable()
        router.add(middleware: RequestLogMiddleware())
        if let testMode = services.testMode {
            router.add(middleware: TestCountersMiddleware(state: testMode))
        }
        if let dpop = services.dpop {
            router.add(middleware: DPoPNonceMiddleware(gate: dpop))
        }
        router.add(middleware: ErrorMiddleware(routes: table))
        if let testMode = services.testMode {
            router.add(middleware: TestErrorCodeMiddleware(state: testMode))
        }
        var collections = [
            AuthRoutes(services: services).endpoints,
            MemberRoutes(services: services).endpoints,
            QuestionRoutes(services: services).endpoints,
            AnswerRoutes(services: services).endpoints,
            PostRoutes(services: services).endpoints,
            CommentRoutes(services: services).endpoints,
            ReportRoutes(services: services).endpoints,
            AdminRoutes(services: services).endpoints,
        ]
        if let testMode = services.testMode {
            collections.append(TestRoutes(state: testMode, dpopNonces: services.dpop?.nonceIssuer).endpoints)
        }
        let recorder = RecordingRouter(router: router, table: table)
        for collection in collections {
            recorder.addRoutes(collection, atPath: "/v1")
        }
        return router
    }

    private static func baseURL(of channel: any Channel, fallbackHost: String) -> String {
        let address = channel.localAddress
        var host = address?.ipAddress ?? fallbackHost
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(address?.port ?? 0)"
    }
}
