import AppRepository
@testable import CLISupport
import Foundation
import NetworkService
import SessionEngine
import Synchronization
import Testing
import TokenStore

/// A store whose saves fail, as on a full disk.
private final class FullDiskStore: TokenStore {
    let inner = InMemoryTokenStore()
    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        throw TokenStoreError(kind: .io, path: "/full", reason: "No space left on device")
    }
    func clear() async throws(TokenStoreError) { try await inner.clear() }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}

@Suite("--verbose notes")
struct VerboseTokenStoreTests {
    private let credentials = Credentials(accessToken: "a", refreshToken: "r", accessTokenExpiresAt: nil, accountID: "m")
    private let refresher = TokenRefresher { _, _ in Tokens(accessToken: AccessToken("a2"), refreshToken: "r2", expiresIn: 900) }

    @Test("after a refresh, 'saved in the store' is printed once the save succeeded, and not when it failed")
    func savedOnlyAfterTheSave() async throws {
        for (inner, saves) in [(InMemoryTokenStore() as any TokenStore, true), (FullDiskStore(), false)] {
            let notes = Mutex<[String]>([])
            let store = VerboseTokenStore(inner, note: { message in notes.withLock { $0.append(message) } })
            _ = try await store.refresher(wrapping: refresher).refresh(credentials, try Server(baseURL: "https://api.example.com"))
            if saves {
                try await store.save(credentials)
            } else {
                await #expect(throws: TokenStoreError.self) { try await store.save(credentials) }
            }
            let printed = notes.withLock { $0 }
            #expect(printed.first == "the access token needs refreshing: POST /v1/auth/refresh")
            #expect(printed.contains("refreshed; the new tokens are saved in the store") == saves, "\(printed)")
        }
    }
}
