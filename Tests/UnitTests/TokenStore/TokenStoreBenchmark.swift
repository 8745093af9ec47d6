import Foundation
import Testing
import TokenStore

/// Prints what the README states about store costs. Run it alone for steadier numbers:
/// `swift test --filter TokenStoreBenchmark` (add `-c release` for release-build numbers).
@Suite("TokenStore benchmark", .serialized)
struct TokenStoreBenchmark {
    private static let clock = ContinuousClock()

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func format(_ ms: Double) -> String {
        ms >= 10 ? String(format: "%.0f ms", ms) : String(format: "%.3f ms", ms)
    }

    @Test("benchmark: load and save of the file and encrypted stores, measured side by side")
    func loadAndSave() async throws {
        #if EncryptedTokenStore
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let plain = FileTokenStore(fileURL: folder.appendingPathComponent("tokens.json"))
            let encrypted = try await EncryptedFileTokenStore(
                fileURL: folder.appendingPathComponent("tokens.enc"), key: .rawKey([UInt8](repeating: 42, count: 32)))
            let stores: [(name: String, store: any TokenStore)] = [("file", plain), ("encrypted", encrypted)]
            let credentials = TokenStoreTesting.credentials()
            for (_, store) in stores { try await store.save(credentials) }  // warm up

            let runs = 101
            var loads: [String: [Double]] = [:]
            var saves: [String: [Double]] = [:]
            for _ in 0..<runs {
                // Alternate the stores so that both see the same machine load.
                for (name, store) in stores {
                    let start = Self.clock.now
                    try await store.save(credentials)
                    saves[name, default: []].append(Self.milliseconds(Self.clock.now - start))
                    let loadStart = Self.clock.now
                    let loaded = try await store.load()
                    loads[name, default: []].append(Self.milliseconds(Self.clock.now - loadStart))
                    #expect(loaded == credentials)
                }
            }
            let load = (file: Self.median(loads["file"]!), encrypted: Self.median(loads["encrypted"]!))
            let save = (file: Self.median(saves["file"]!), encrypted: Self.median(saves["encrypted"]!))
            print("""
                TokenStore benchmark (median of \(runs) runs, store already open):
                  load: file \(Self.format(load.file)), encrypted \(Self.format(load.encrypted)), encrypted/file \(String(format: "%.2f", load.encrypted / load.file))x
                  save: file \(Self.format(save.file)), encrypted \(Self.format(save.encrypted)), encrypted/file \(String(format: "%.2f", save.encrypted / save.file))x (each save: write, fsync, rename, fsync folder)
                """)
        }
        #endif
    }

    @Test("benchmark: opening an encrypted store with a passphrase (Argon2id, default and moderate parameters)")
    func openWithPassphrase() async throws {
        #if EncryptedTokenStore
        try await TokenStoreTesting.withTemporaryFolder { folder in
            var lines: [String] = []
            for (name, derivation, runs) in [("interactive (default)", EncryptedFileTokenStore.KeyDerivation.interactive, 5),
                                             ("moderate", .moderate, 3)] {
                let url = folder.appendingPathComponent("\(name.prefix(4)).enc")
                let key = EncryptedFileTokenStore.KeySource.passphrase("benchmark passphrase", derivation: derivation)
                try await EncryptedFileTokenStore(fileURL: url, key: key).save(TokenStoreTesting.credentials())
                var opens: [Double] = []
                for _ in 0..<runs {
                    let start = Self.clock.now
                    let store = try await EncryptedFileTokenStore(fileURL: url, key: key)
                    opens.append(Self.milliseconds(Self.clock.now - start))
                    #expect(try await store.load() != nil)
                }
                lines.append("  \(name) \(derivation): \(Self.format(Self.median(opens))) (median of \(runs))")
            }
            print("TokenStore benchmark: opening with a passphrase (once per store, never per read):\n" + lines.joined(separator: "\n"))
        }
        #endif
    }
}
