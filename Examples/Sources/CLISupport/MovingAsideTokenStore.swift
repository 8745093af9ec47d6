public import TokenStore

/// The store of a sign-in: before its first save, it moves an unreadable file or row aside
/// through the store's own `moveAsideIfUnreadable()` (kept, never deleted) and says where it
/// went, so the user learns where the old session is. The save itself would move it too, but
/// silently.
///
/// It only runs once the server has accepted the sign-in (the save comes after), so a refused
/// sign-in leaves the store as it was. Whether the store reaches this point with a file that
/// does not decrypt is the runner's decision (``UnreadableStore``).
public final class MovingAsideTokenStore: TokenStore {
    private let inner: any TokenStore
    private let moveAside: @Sendable () async throws(TokenStoreError) -> String?
    private let said: @Sendable (String) -> Void

    /// - Parameters:
    ///   - inner: The store.
    ///   - moveAside: The store's `moveAsideIfUnreadable()`, giving where the data went.
    ///   - said: Told where it went, once it was moved.
    public init(
        _ inner: any TokenStore,
        moveAside: @escaping @Sendable () async throws(TokenStoreError) -> String?,
        said: @escaping @Sendable (String) -> Void
    ) {
        self.inner = inner
        self.moveAside = moveAside
        self.said = said
    }

    /// A sign-in's store over `inner` that says on stderr where it moved an unreadable file or
    /// row: the one message every program prints for it.
    public static func sayingWhere(
        _ inner: any TokenStore, moveAside: @escaping @Sendable () async throws(TokenStoreError) -> String?
    ) -> MovingAsideTokenStore {
        MovingAsideTokenStore(inner, moveAside: moveAside) { place in
            Output.writeError("\(Program.name): the store could not be read, so it was moved aside (kept, not deleted): \(place)")
        }
    }

    public func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }

    public func save(_ credentials: Credentials) async throws(TokenStoreError) {
        // Inside the exclusive section when the SDK saves (a sign-in does): the move and the save
        // are one step for every other process.
        if let place = try await moveAside() {
            said(place)
        }
        try await inner.save(credentials)
    }

    public func clear() async throws(TokenStoreError) { try await inner.clear() }

    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}
