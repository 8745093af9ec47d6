import Foundation
import Testing
import TokenStore

/// The file stores keep the credentials they decoded. Inside the exclusive section a load
/// looks at the file (one `stat`) every time; outside it, a look is trusted for
/// `changeCheckInterval` while no store of this process wrote the file. These tests prove
/// that a change made elsewhere is never missed where it must be seen.
@Suite("File stores see every write made elsewhere: inside the exclusive section at once, outside it within the change-check interval")
struct TokenStoreCachingTests {
    typealias Kind = TokenStoreMultiProcessTests.StoreKind

    /// Options that look at the file on every load.
    static let looksEveryTime = FileTokenStore.Options(changeCheckInterval: .zero)

    /// Runs the probe program's `save` of `count`, as another process.
    static func saveInAnotherProcess(_ kind: Kind, folder: URL, count: Int) async throws {
        let outcome = try await TokenStoreProbeRunner.run(
            [["save"] + kind.arguments(folder: folder) + ["--count", "\(count)"]],
            environment: TokenStoreMultiProcessTests.environment)
        #expect(outcome.first?.status == 0, "\(outcome)")
    }

    @Test("Looking every time, a write by another process is seen on the next load, also right after a cached load", arguments: Kind.available)
    func writeByAnotherProcessIsSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let store = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder, options: Self.looksEveryTime)
            try await store.save(TokenStoreTesting.probeCredentials(count: 1))
            // Let the version settle, so the following loads are answered from the cache.
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            // Each new version has the same size as the last (`access-2`, `access-3`, ...).
            for count in 2...6 {
                try await Self.saveInAnotherProcess(kind, folder: folder, count: count)
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count)
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count)
            }
        }
    }

    @Test("Within the interval a load outside the section does not look; inside it, another process's write is seen at once", arguments: Kind.available)
    func insideTheSectionEveryWriteIsSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let store = try await TokenStoreMultiProcessTests.inProcessStore(
                kind, folder: folder, options: .init(changeCheckInterval: .seconds(3600)))
            try await store.save(TokenStoreTesting.probeCredentials(count: 1))
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            for count in 2...4 {
                try await Self.saveInAnotherProcess(kind, folder: folder, count: count)
                // The last look is trusted: the kept credentials, without a system call.
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count - 1)
                let inside = try await store.withExclusiveAccess { try await store.load() }
                #expect(try TokenStoreTesting.probeCount(inside) == count)
                // That look is kept for the loads outside. (A version that new is read
                // again until it has settled; then it is trusted by its identity again.)
                try await Task.sleep(for: .milliseconds(250))
                #expect(try TokenStoreTesting.probeCount(try await store.load()) == count)
            }
        }
    }

    @Test("Once the interval has passed, a load outside the section sees another process's write", arguments: Kind.available)
    func afterTheIntervalAWriteIsSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let store = try await TokenStoreMultiProcessTests.inProcessStore(
                kind, folder: folder, options: .init(changeCheckInterval: .milliseconds(50)))
            try await store.save(TokenStoreTesting.probeCredentials(count: 1))
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 1)
            try await Self.saveInAnotherProcess(kind, folder: folder, count: 2)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try TokenStoreTesting.probeCount(try await store.load()) == 2)
        }
    }

    @Test("Rapid same-size writes and a clear by another store of this process are each seen at once, within the interval", arguments: Kind.available)
    func rapidWritesAreSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            // Two stores on one file keep separate caches; the process counts its writes to it.
            let options = FileTokenStore.Options(changeCheckInterval: .seconds(3600))
            let reader = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder, options: options)
            let writer = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder, options: options)
            try await writer.save(TokenStoreTesting.probeCredentials(count: 1))
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await reader.load()) == 1)
            for count in 2...40 {
                try await writer.save(TokenStoreTesting.probeCredentials(count: count))
                #expect(try TokenStoreTesting.probeCount(try await reader.load()) == count)
            }
            try await Task.sleep(for: .milliseconds(250))
            #expect(try TokenStoreTesting.probeCount(try await reader.load()) == 40)
            #expect(try TokenStoreTesting.probeCount(try await reader.load()) == 40)
            try await writer.clear()
            #expect(try await reader.load() == nil)
        }
    }

    @Test("Looking every time, a deleted file loads as no credentials, and a file made readable to others is refused again", arguments: Kind.available)
    func removalAndPermissionChangesAreSeen(kind: Kind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("shared/tokens")
            let store = try await TokenStoreMultiProcessTests.inProcessStore(kind, folder: folder, options: Self.looksEveryTime)
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
