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
    let inner: InMemoryTokenStore
    init(_ credentials: Credentials) { inner = InMemoryTokenStore(credentials: credentials) }
    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        throw TokenStoreError(kind: .io, path: "/full", reason: "No space left on device")
    }
    func clear() async throws(TokenStoreError) { try await inner.clear() }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}

/// `--verbose` prints from the engine's records: the same decisions, one source of truth.
@Suite("--verbose notes")
struct VerboseNotesTests {
    private let expired = Credentials(accessToken: AccessToken("secret-a1"), refreshToken: "secret-r1",
                                      accessTokenExpiresAt: Date().addingTimeInterval(-1), accountID: "m")

    /// The notes a call prints whose expired token is refreshed, over `store`.
    private func notes(over store: any TokenStore) async throws -> [String] {
        let notes = Mutex<[String]>([])
        var configuration = RepositoryService.Configuration.appAPI
        configuration.refresher = TokenRefresher { _, _ in Tokens(accessToken: AccessToken("secret-a2"), refreshToken: "secret-r2", expiresIn: 900) }
        configuration.observer = VerboseNotes.observer { note in notes.withLock { $0.append(note) } }
        let service = RepositoryService(server: try Server(baseURL: "https://api.example.com"), tokenStore: store,
                                        configuration: configuration)
        _ = try? await service.request { _, _ in () }
        return notes.withLock { $0 }
    }

    @Test("a refresh says why it started and what the server answered; 'saved in the store' only once the save succeeded")
    func savedOnlyAfterTheSave() async throws {
        let saved = try await notes(over: InMemoryTokenStore(credentials: expired))
        #expect(saved.first == "refresh 1: the access token is due")
        #expect(saved.contains { $0.hasPrefix("the access token needs refreshing: POST /v1/auth/refresh answered in") && $0.hasSuffix(": rotated") })
        #expect(saved.last == "refreshed; the new tokens are saved in the store")

        let full = try await notes(over: FullDiskStore(expired))
        #expect(!full.contains("refreshed; the new tokens are saved in the store"), "\(full)")
        #expect(full.contains("the store could not save the new tokens: they are used for this run only"))
        #expect(full.contains { $0.hasPrefix("the token store failed (save):") })
        #expect((saved + full).allSatisfy { note in !["secret-a1", "secret-r1", "secret-a2", "secret-r2"].contains { note.contains($0) } })
    }

    @Test("another program's refresh and a retry have their own notes; bookkeeping steps have none")
    func otherNotes() {
        let date = Date()
        func note(_ event: SessionRecord.Event) -> String? { VerboseNotes.note(for: SessionRecord(refreshID: 2, date: date, event: event)) }
        #expect(note(.storeHeldNewerTokens) == "another program already refreshed: its new tokens are used, without calling the server")
        #expect(note(.retryScheduled(attempt: 2, delay: 1)) == "trying the refresh again in 1.0 s (attempt 2)")
        #expect(note(.exclusiveSectionEntered(waited: 1.5)) == "waited 1.5 s for the store's exclusive section (another program held it)")
        #expect(note(.exclusiveSectionEntered(waited: 0)) == nil)
        #expect(note(.joinedRefresh(.due)) == nil)
        #expect(note(.refreshFinished(duration: 1, succeeded: true)) == nil)
    }
}
