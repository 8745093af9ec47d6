import Foundation
import Testing
import TokenStore

@Suite("Processes sharing a Keychain item through an App Group take turns")
struct KeychainMultiProcessTests {
    @Test("three processes each incrementing 40 times inside the section, through the group's lock file, lose no update")
    func processesTakeTurns() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            // The probe's keychain is a folder all of them share; its App Group container is another.
            let store = ["--store", "keychain", "--path", folder.path]
            let outcomes = try await TokenStoreProbeRunner.run(Array(repeating: ["increment"] + store + ["--rounds", "40"], count: 3))
            for outcome in outcomes {
                #expect(outcome.status == 0, "probe failed: \(outcome.errorOutput)")
            }
            let final = try await TokenStoreProbeRunner.run([["load"] + store])
            #expect(final.first?.output == "120\n", "\(final)")
            let lockFolder = folder.appendingPathComponent("container/TokenStore")
            #expect(try TokenStoreTesting.contents(of: lockFolder) == ["com.example.probe-credentials.lock"])
        }
    }
}
