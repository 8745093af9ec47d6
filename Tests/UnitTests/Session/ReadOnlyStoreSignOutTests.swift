import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("Signing out of a store that can be read but is read-only (a standby database)")
struct ReadOnlyStoreSignOutTests {
    @Test("sign-out still ends the session on the server, and says the local copy stays, with the readOnly error")
    func signOutEndsTheServerSession() async throws {
        let fake = try FakeAppServer(clock: TestClock())
        let store = FaultyTokenStore()
        let credentials = fake.issueCredentials()
        try await store.save(credentials)
        let service = fake.service(store: store)
        store.clearFailureKind.withLock { $0 = .readOnly }

        let result = try await service.signOut()
        #expect(result.wasSignedIn)
        #expect(result.serverConfirmed)
        #expect(!result.removedLocally)
        #expect(result.localError?.kind == .readOnly)
        #expect(fake.state.withLock { $0.signOutRequests } == 1)
        #expect(try await store.load() == credentials, "the local copy stays until the database is writable")
    }
}
