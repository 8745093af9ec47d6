import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("An account deleted while the store could not remove its credentials")
struct AccountDeletionStoreErrorTests {
    @Test("deleting the account sends signedOut(accountDeleted) once, says the credentials stay, and never presents them to the server again")
    func deletedAccountIsNotUsedAgain() async throws {
        let fake = try FakeAppServer(clock: TestClock())
        let store = FaultyTokenStore()
        let deleted = fake.issueCredentials()
        try await store.save(deleted)
        let service = fake.service(store: store)
        let events = service.events()
        store.clearFailureKind.withLock { $0 = .unavailable }

        let error = await #expect(throws: SessionError.self) { try await service.deleteAccount() }
        #expect(error?.kind == .sessionEndedCredentialsNotRemoved)
        #expect(error?.reason == .accountDeleted)
        #expect((error?.underlying as? TokenStoreError)?.kind == .unavailable)
        #expect(try await store.load() == deleted, "the store still holds them")
        #expect(try await service.isSignedIn() == false)

        // Later calls neither refresh nor call the API with the deleted account's tokens.
        let requestsAfterDeletion = fake.requests.count
        for _ in 0..<2 {
            let later = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
            #expect(later?.kind == .sessionEndedCredentialsNotRemoved)
        }
        #expect(fake.requests.count == requestsAfterDeletion, "a later call went to the server")

        // Once the store works again, the next call removes them: not signed in.
        store.clearFailureKind.withLock { $0 = nil }
        let afterRecovery = await #expect(throws: SessionError.self) { try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } }
        #expect(afterRecovery?.kind == .notSignedIn)
        #expect(try await store.load() == nil)

        // One signedOut(accountDeleted), and nothing else, up to the next sign-in.
        let received = try await eventsUpToNextSignIn(of: service, on: fake, from: events)
        #expect(received.filter { if case .signedOut = $0 { true } else { false } } == [.signedOut(.accountDeleted)])
    }
}
