import Foundation
import Testing
import TokenStore

@Suite("Token store errors and descriptions never reveal secrets")
struct TokenStoreSecrecyTests {
    /// Every way a value might be printed.
    private func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(reflecting: value), dumped]
    }

    private func expectNoSecrets(in texts: [String], secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts {
            for secret in secrets {
                #expect(!text.contains(secret), "a secret appears in: \(text.prefix(200))…", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("Credentials print without their tokens")
    func credentials() {
        let credentials = TokenStoreTesting.credentials()
        expectNoSecrets(in: renderings(credentials), secrets: [credentials.accessToken.rawValue, credentials.refreshToken])
    }

    @Test("Errors from files holding tokens never quote them")
    func errorsAboutFiles() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            let credentials = TokenStoreTesting.credentials()
            let store = FileTokenStore(fileURL: url)
            try await store.save(credentials)
            let valid = try TokenStoreTesting.bytes(at: url)
            let json = String(decoding: valid, as: UTF8.self)
            var texts: [String] = renderings(store)
            // Broken in ways that make JSON decoders quote what they read.
            let variants = [
                String(json.dropLast(3)),
                json.replacingOccurrences(of: "\"memberID\"", with: "\"member\""),
                json.replacingOccurrences(of: "\"version\":1", with: "\"version\":\"\(credentials.accessToken.rawValue)\""),
                json.replacingOccurrences(of: "\"\(credentials.refreshToken)\"", with: "[\"\(credentials.refreshToken)\"]"),
                credentials.accessToken.rawValue,
            ]
            for variant in variants {
                try TokenStoreTesting.write(Array(variant.utf8), to: url)
                if let error = await TokenStoreTesting.expectStoreError({ _ = try await store.load() }) {
                    texts += renderings(error)
                }
            }
            expectNoSecrets(in: texts, secrets: [credentials.accessToken.rawValue, credentials.refreshToken])
        }
    }

    #if EncryptedTokenStore
    @Test("Encrypted stores, their key sources and their errors never show the passphrase, key or tokens")
    func encrypted() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.enc")
            let passphrase = "passphrase-\(UUID().uuidString)"
            let rawKey = (0..<32).map { UInt8(($0 * 37 + 11) & 0xFF) }
            let credentials = TokenStoreTesting.credentials()
            let passphraseKey = EncryptedFileTokenStore.KeySource.passphrase(passphrase, derivation: .cheapForTests)
            let rawKeySource = EncryptedFileTokenStore.KeySource.rawKey(rawKey)
            let store = try await EncryptedFileTokenStore(fileURL: url, key: passphraseKey)
            try await store.save(credentials)
            var texts = renderings(passphraseKey) + renderings(rawKeySource) + renderings(store)

            let wrong = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase(passphrase + "x", derivation: .cheapForTests))
            texts += renderings(wrong)
            if let error = await TokenStoreTesting.expectStoreError({ _ = try await wrong.load() }) { texts += renderings(error) }
            let keyed = try await EncryptedFileTokenStore(fileURL: url, key: rawKeySource)
            texts += renderings(keyed)
            if let error = await TokenStoreTesting.expectStoreError({ _ = try await keyed.load() }) { texts += renderings(error) }

            // The probe's output when it is given a wrong passphrase.
            let outcome = try await TokenStoreProbeRunner.run(
                [["load", "--store", "encrypted", "--path", url.path, "--passphrase-env", "PROBE_SECRET", "--ops", "1", "--mem", "8192"]],
                environment: ["PROBE_SECRET": passphrase + "y"])
            #expect(outcome.first?.status == 1)
            #expect(outcome.first?.errorOutput.contains("wrong key or passphrase") == true)
            texts += outcome.flatMap { [$0.output, $0.errorOutput] }

            let keyRenderings = [
                rawKey.map { String($0) }.joined(separator: ", "),
                rawKey.map { String(format: "%02x", $0) }.joined(),
                Data(rawKey).base64EncodedString(),
            ]
            expectNoSecrets(in: texts, secrets: [passphrase, credentials.accessToken.rawValue, credentials.refreshToken] + keyRenderings)
        }
    }
    #endif
}
