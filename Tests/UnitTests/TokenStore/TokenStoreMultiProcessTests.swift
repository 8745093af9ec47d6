import Foundation
import Testing
import TokenStore

@Suite("Token store files stay consistent across processes")
struct TokenStoreMultiProcessTests {
    static let processCount = 4
    static let rounds = 50

    /// The probe's store arguments for each kind of file store.
    enum StoreKind: String, CaseIterable, Sendable {
        case plain, encryptedKeyFile, encryptedPassphrase

        func arguments(folder: URL) -> [String] {
            let path = ["--path", folder.appendingPathComponent("shared/tokens").path]
            switch self {
            case .plain: return ["--store", "plain"] + path
            case .encryptedKeyFile:
                return ["--store", "encrypted", "--key-file", folder.appendingPathComponent("keys/key").path] + path
            case .encryptedPassphrase:
                return ["--store", "encrypted", "--passphrase-env", "TOKEN_STORE_PROBE_PASSPHRASE", "--ops", "1", "--mem", "8192"] + path
            }
        }

        static var available: [StoreKind] {
            #if EncryptedTokenStore
            allCases
            #else
            [.plain]
            #endif
        }
    }

    static let environment = ["TOKEN_STORE_PROBE_PASSPHRASE": "probe passphrase"]

    @Test("Four processes each incrementing 50 times inside the exclusive section lose no update", arguments: StoreKind.available)
    func processesIncrement(kind: StoreKind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let arguments = ["increment"] + kind.arguments(folder: folder) + ["--rounds", "\(Self.rounds)"]
            let outcomes = try await TokenStoreProbeRunner.run(
                Array(repeating: arguments, count: Self.processCount), environment: Self.environment)
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
                #expect(outcome.errorOutput.isEmpty)
            }
            let final = try await TokenStoreProbeRunner.run([["load"] + kind.arguments(folder: folder)], environment: Self.environment)
            #expect(final.first?.output == "\(Self.processCount * Self.rounds)\n", "\(final)")
        }
    }

    @Test("A writer killed with SIGKILL mid-save always leaves the old or the new credentials", arguments: StoreKind.available)
    func killedWriter(kind: StoreKind) async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let arguments = ["save-loop"] + kind.arguments(folder: folder)
            let url = folder.appendingPathComponent("shared/tokens")
            let store = try await Self.inProcessStore(kind, folder: folder)
            var previous = 0
            for _ in 0..<20 {
                let outcome = try await TokenStoreProbeRunner.runAndKill(
                    arguments, environment: Self.environment, maximumDelay: .milliseconds(15))
                #expect(outcome.wasKilled, "the probe ended on its own: \(outcome.errorOutput)")
                // The file loads (never empty, truncated or mixed), and holds a count at least as new as before.
                let count = try TokenStoreTesting.probeCount(try await store.load())
                #expect(count >= previous)
                previous = count
            }
            #expect(previous > 0, "the writer never completed a save before being killed")
            // Temporary files of killed writers are removed by the next save.
            try await store.save(TokenStoreTesting.probeCredentials(count: previous + 1))
            let leftovers = try TokenStoreTesting.contents(of: url.deletingLastPathComponent()).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty)
        }
    }

    static func inProcessStore(
        _ kind: StoreKind, folder: URL, options: FileTokenStore.Options = .init()
    ) async throws -> any TokenStore {
        let url = folder.appendingPathComponent("shared/tokens")
        switch kind {
        case .plain:
            return FileTokenStore(fileURL: url, options: options)
        #if EncryptedTokenStore
        case .encryptedKeyFile:
            return try await EncryptedFileTokenStore(
                fileURL: url, key: .keyFile(folder.appendingPathComponent("keys/key")), options: options)
        case .encryptedPassphrase:
            return try await EncryptedFileTokenStore(
                fileURL: url, key: .passphrase(environment["TOKEN_STORE_PROBE_PASSPHRASE"]!, derivation: .cheapForTests),
                options: options)
        #else
        case .encryptedKeyFile, .encryptedPassphrase:
            throw TestFailure("built without the EncryptedTokenStore trait")
        #endif
        }
    }
}
