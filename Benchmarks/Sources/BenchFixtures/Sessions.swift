public import Foundation
public import NetworkService
public import SessionEngine
public import TokenStore

/// The services the store and refresh benchmarks call, each with its own store.
public enum Sessions {
    /// A service over `store` answering from memory, with the JSON preset's refresh (answering
    /// tokens for a day) and a refresh margin of 30 seconds, so ``Fixtures/dueCredentials``
    /// (10 seconds left) are due.
    public static func service(store: some TokenStore) throws -> SessionService {
        let server = try Server(baseURL: Fixtures.baseURL, transport: TokenServerTransport(expiresIn: 86_400))
        var configuration = SessionService.Configuration.json(
            JSONTokenRefresh(path: EndpointPath(stringLiteral: Fixtures.refreshPath)))
        configuration.refreshTiming.minimumMargin = 30
        return SessionService(server: server, tokenStore: store, configuration: configuration)
    }

    /// A new temporary folder (mode 0700) for a file store.
    public static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("sdk-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// A file store in a new temporary folder holding fresh credentials, settled: a file
    /// written less than 100 ms ago is read again on every load (its identity is not trusted
    /// yet), so this waits 150 ms; from then on a load makes no system call, but for one
    /// `stat` every 100 ms (`changeCheckInterval`).
    public static func fileStore() async throws -> FileTokenStore {
        let store = FileTokenStore(fileURL: try temporaryFolder().appendingPathComponent("tokens.json"))
        try await store.save(Fixtures.freshCredentials)
        try await settle(store)
        return store
    }

    /// Waits until the file just saved is settled, then loads it once (the load that reads it).
    static func settle(_ store: some TokenStore) async throws {
        try await Task.sleep(for: .milliseconds(150))
        _ = try await store.load()
    }

    /// An encrypted store (a raw key, no key derivation) in a new temporary folder holding fresh
    /// credentials, settled as ``fileStore()``'s.
    public static func encryptedStore() async throws -> EncryptedFileTokenStore {
        let key = (0..<32).map { UInt8($0 &* 7 &+ 3) }
        let store = try await EncryptedFileTokenStore(
            fileURL: try temporaryFolder().appendingPathComponent("tokens.sealed"), key: .rawKey(key))
        try await store.save(Fixtures.freshCredentials)
        try await settle(store)
        return store
    }

    /// `GET /v1/posts/42` through `service`, decoded.
    public static func call(_ service: SessionService) async throws -> Post {
        try await service.request { server, token in
            try await server.send(PostEndpoint(), as: Post.self, accessToken: token)
        }
    }

    /// `callers` tasks calling `call(service)`, `total` calls in all (spread evenly); the sum
    /// of the posts' ids.
    public static func concurrentCalls(_ service: SessionService, callers: Int, total: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<callers {
                let calls = total / callers + (caller < total % callers ? 1 : 0)
                group.addTask {
                    var sum = 0
                    for _ in 0..<calls { sum &+= try await call(service).id }
                    return sum
                }
            }
            return try await group.reduce(0, &+)
        }
    }
}
