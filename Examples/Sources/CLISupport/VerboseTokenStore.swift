import AppRepository
import SessionEngine
import TokenStore

/// A token store that, for `--verbose`, says when a refresh's new tokens are saved: only
/// after the save succeeded (a full disk must not print that they were).
final class VerboseTokenStore: TokenStore {
    private let inner: any TokenStore
    private let note: @Sendable (String) -> Void
    private let refreshes = RefreshesInFlight()

    init(_ inner: any TokenStore, note: @escaping @Sendable (String) -> Void) {
        self.inner = inner
        self.note = note
    }

    /// The refresher to use with this store: it says when a refresh starts and marks it, so
    /// that the next save is reported as the refresh's.
    func refresher(wrapping refresher: TokenRefresher) -> TokenRefresher {
        let (note, refreshes) = (self.note, self.refreshes)
        return TokenRefresher(failureRule: refresher.failureRule) { credentials, server in
            note("the access token needs refreshing: POST /v1/auth/refresh")
            let tokens = try await refresher.refresh(credentials, server)
            await refreshes.begin()
            return tokens
        }
    }

    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }

    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        let wasRefresh = await refreshes.end()
        try await inner.save(credentials)
        if wasRefresh { note("refreshed; the new tokens are saved in the store") }
    }

    func clear() async throws(TokenStoreError) { try await inner.clear() }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}

/// Whether a refresh answered and its save is still to come.
private actor RefreshesInFlight {
    private var pending = false
    func begin() { pending = true }
    func end() -> Bool {
        defer { pending = false }
        return pending
    }
}
