import Foundation
import Testing
import TokenStore

/// The file stores keep the credentials they decoded and answer a load with one `stat` while
/// the file is unchanged; these tests prove that a change made elsewhere is never missed.
@Suite("File stores see every write made elsewhere, however quickly it follows")
struct TokenStoreCachingTests {
    typealias Kind = TokenStoreMultiProcessTests.StoreKind

    @Test("A write by another process is seen on the next load, also right after a cached load", arguments: Kind.available)
    func writeByAnotherProcessIsSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let store = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder)
            try await store.save(TokenStoreTesting.probeCredentials(count: 1))
            // Let the version settle, so the following loads are answered from the cache.
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            // Each new version has the same size as the last (`access-2`, `access-3`, ...).
            for count in 2...6 {
                let outcome = try await TokenStoreProbeRunner.run(
                    [["save"] + kind.arguments(folder: folder) + ["--count", "\(count)"]],
                    environment: TokenStoreMultiProcessTests.environment)
                #expect(outcome.first?.status == 0, "\(outcome)")
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count)
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count)
            }
        }
    }

    @Test("Rapid same-size writes by another store are each seen by a store that loads between them", arguments: Kind.available)
    func rapidWritesAreSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            // Two stores on one file keep separate caches, like two processes.
            let reader = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder)
            let writer = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder)
            try await writer.save(TokenStoreTesting.probeCredentials(count: 1))
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await reader.load()) == 1)
            for count in 2...40 {
                try await writer.save(TokenStoreTesting.probeCredentials(count: count))
                #expect(try TokenStoreTesting.probeCount(try await reader.load()) == count)
            }
        }
    }

    @Test("A deleted file loads as no credentials, and a file made readable to others is refused again", arguments: Kind.available)
    func removalAndPermissionChangesAreSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("shared/tokens")
            let store = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder)
            try await store.save(TokenStoreTesting.probeCredentials(count: 1))
            try await Task.sleep(for: .milliseconds(250))
            #expect(try await store.load() != nil)
            #expect(try await store.load() != nil)
            #expect(chmod(url.path, 0o644) == 0)
            let error = await TokenStoreTesting.expectStoreError { _ = try await store.load() }
            #expect(error?.kind == .insecurePermissions)
            #expect(chmod(url.path, 0o600) == 0)
            #expect(try await store.load() != nil)
            try FileManager.default.removeItem(at: url)
            #expect(try await store.load() == nil)
        }
    }
}
