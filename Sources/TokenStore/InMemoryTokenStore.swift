/// Keeps credentials in memory: for tests and short-lived tools. Nothing survives the
/// process, and the exclusive section holds only within this store instance.
///
/// ```swift
/// let store = InMemoryTokenStore()
/// try await store.save(credentials)
/// ```
public final class InMemoryTokenStore: TokenStore, CustomStringConvertible {
    private let credentials: LockedValue<Credentials?>
    private let section = InProcessSection(kind: "memory")

    /// Creates a store, optionally already holding `credentials`.
    public init(credentials: Credentials? = nil) {
        self.credentials = LockedValue(credentials)
    }

    /// The stored credentials; `nil` when none are stored. Never throws.
    public func load() async throws(TokenStoreError) -> Credentials? {
        credentials.withLock { $0 }
    }

    /// Replaces the stored credentials. Never throws.
    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        self.credentials.withLock { $0 = credentials }
    }

    /// Forgets the stored credentials. Never throws.
    public func clear() async throws(TokenStoreError) {
        credentials.withLock { $0 = nil }
    }

    /// Runs `body` while no other task runs an exclusive section of this store; nested
    /// calls from the same task tree run directly.
    /// - Throws: `CancellationError` when the task is cancelled while waiting, or what `body` throws.
    public func withExclusiveAccess<T: Sendable>(
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await section.run(body)
    }

    /// `InMemoryTokenStore(empty)` or `InMemoryTokenStore(member: <id>)`; never the tokens.
    public var description: String {
        credentials.withLock { $0 }.map { "InMemoryTokenStore(account: \($0.accountID))" } ?? "InMemoryTokenStore(empty)"
    }
}
