import AppSDKTesting
import Foundation
import Testing
import TokenStore

/// Issue 36: no private key in any description, mirror or error. Everything a person or a log
/// could be shown about a DPoP-bound session and its stores is searched for the key's `d`.
@Suite("A DPoP key's private part is never printed")
struct DPoPKeySecrecyTests {
    /// Every way Swift prints `value`.
    static func everyPrinting(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    #if EncryptedTokenStore
    @Test("credentials, keys, stores and their errors show the algorithm and thumbprint, never d")
    func nothingShowsD() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let key = DPoPTestKeys.eddsa()
            let d = try #require(DPoPTestKeys.d(of: key))
            let credentials = DPoPTestKeys.credentials(key)
            let url = folder.appendingPathComponent("tokens.enc")
            let keychain = InMemoryKeychain()
            let stores: [any TokenStore] = [
                InMemoryTokenStore(credentials: credentials),
                FileTokenStore(fileURL: folder.appendingPathComponent("tokens.json")),
                try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 5, count: 32))),
                keychain.tokenStore(service: KeychainTesting.uniqueService()),
            ]
            var printed: [String] = []
            for store in stores {
                try await store.save(credentials)
                let loaded = try #require(try await store.load())
                printed += Self.everyPrinting(of: store) + Self.everyPrinting(of: loaded)
            }
            printed += Self.everyPrinting(of: key) + Self.everyPrinting(of: credentials)
            printed += Self.everyPrinting(of: key.material)
            // Errors about the key: a damaged file and a wrong store key.
            let damaged = folder.appendingPathComponent("damaged.json")
            let text = String(decoding: try CredentialsSealer.plain(location: "x").seal(credentials), as: UTF8.self)
            try TokenStoreTesting.write(Array(text.replacingOccurrences(of: #""version":2"#, with: #""version":1"#).utf8), to: damaged)
            if let error = await TokenStoreTesting.expectStoreError({ _ = try await FileTokenStore(fileURL: damaged).load() }) {
                printed += Self.everyPrinting(of: error) + [error.localizedDescription]
            }
            if let error = await TokenStoreTesting.expectStoreError({
                _ = try await EncryptedFileTokenStore(fileURL: url, key: .rawKey([UInt8](repeating: 6, count: 32))).load()
            }) {
                printed += Self.everyPrinting(of: error)
            }
            let all = printed.joined(separator: "\n")
            #expect(!all.contains(d), "the private key was printed")
            #expect(!all.contains(d.prefix(16)), "part of the private key was printed")
            #expect(all.contains("DPoPKey(EdDSA, jkt \(key.thumbprint.prefix(8))…)"))
            #expect(all.contains("secureEnclave") == false)
        }
    }
    #endif

    @Test("a key prints as its algorithm and the start of its thumbprint")
    func keyDescription() {
        let key = DPoPTestKeys.secureEnclave()
        #expect("\(key)" == "DPoPKey(ES256, jkt 0ZcOCORZ…)")
        #expect(String(reflecting: key) == "DPoPKey(ES256, jkt 0ZcOCORZ…)")
        let credentials = DPoPTestKeys.credentials(key)
        #expect("\(credentials)".hasSuffix(", DPoPKey(ES256, jkt 0ZcOCORZ…))"))
        var dumped = ""
        dump(key, to: &dumped)
        #expect(dumped.contains("secureEnclave") && !dumped.contains("[0, 37, 74"), "\(dumped)")
    }

    @Test("a bearer session prints as before DPoP")
    func bearerUnchanged() {
        let credentials = Credentials(accessToken: .init("a"), refreshToken: "r", accessTokenExpiresAt: nil, accountID: "42")
        #expect("\(credentials)" == "Credentials(account: 42, accessToken: <redacted>, refreshToken: <redacted>, expires: unknown)")
        #expect(Mirror(reflecting: credentials).children.count == 4)
    }
}
