import Foundation
import Testing
import TokenStore

@Suite("Processes sharing a Keychain item through an App Group take turns")
struct KeychainMultiProcessTests {
    static let rounds = 60

    @Test("three processes each incrementing 60 times inside the section, through the group's lock file, lose no update")
    func processesTakeTurns() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            // The probe's keychain is a folder all of them share; its App Group container is another.
            let store = ["--store", "keychain", "--path", folder.path]
            // All three start at the same moment and pause between rounds, so that their sections
            // alternate: each one's load must see what the others saved.
            let start = String(Int((Date().timeIntervalSince1970 + 1) * 1000))
            let increment = ["increment"] + store + ["--rounds", "\(Self.rounds)", "--start-at", start, "--pause-ms", "3"]
            let outcomes = try await TokenStoreProbeRunner.run(Array(repeating: increment, count: 3))
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
            }
            let final = try await TokenStoreProbeRunner.run([["load"] + store])
            #expect(final.first?.output == "\(3 * Self.rounds)\n", "\(final)")
            let lockFolder = folder.appendingPathComponent("container/TokenStore")
            #expect(try TokenStoreTesting.contents(of: lockFolder) == ["com.example.probe-credentials.lock"])
        }
    }
}
