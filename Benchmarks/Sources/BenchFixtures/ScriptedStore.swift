public import TokenStore

/// A memory store whose loads follow a script, to put the refresh path in every call:
///
/// - ``Script/alwaysDue``: every load returns credentials that are due, so every
///   `request(handler:)` refreshes with the server (saves go to memory and are not read back).
/// - ``Script/rotatedElsewhere``: as a store looks when another process keeps rotating the
///   tokens: a call's first load returns due credentials, the second (the re-read inside the
///   refresh's exclusive section) the fresh ones the other process saved, so each call's
///   refresh finds them and uses them without asking the server.
public final class ScriptedStore: TokenStore {
    /// What the loads return.
    public enum Script: Sendable {
        /// Due credentials, always.
        case alwaysDue
        /// Due credentials, then fresh ones, in turn.
        case rotatedElsewhere
    }

    private let script: Script
    private let store = InMemoryTokenStore()
    private let loads = Counter()

    /// Creates a store following `script`.
    public init(_ script: Script) {
        self.script = script
    }

    public func load() async throws(TokenStoreError) -> Credentials? {
        switch script {
        case .alwaysDue: Fixtures.dueCredentials
        case .rotatedElsewhere: loads.next() % 2 == 0 ? Fixtures.dueCredentials : Fixtures.freshCredentials
        }
    }

    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        try await store.save(credentials)
    }

    public func clear() async throws(TokenStoreError) {
        try await store.clear()
    }

    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await store.withExclusiveAccess(body)
    }
}
