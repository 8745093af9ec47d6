import Foundation
import Testing
import AppSDKTesting
import TokenStore

@Suite("The Keychain store keeps credentials in one item, in the data-protection keychain by default")
struct KeychainRoundTripTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()

    @Test("saved credentials load back, replace the earlier ones, and are gone after clear")
    func roundTrip() async throws {
        let store = KeychainTokenStore(service: service, keychain: keychain)
        #expect(try await store.load() == nil)
        let first = TokenStoreTesting.credentials("first")
        try await store.save(first)
        #expect(try await store.load() == first)
        let second = TokenStoreTesting.credentials("second", expires: nil)
        try await store.save(second)
        #expect(try await store.load() == second)
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == second)
        try await store.clear()
        #expect(try await store.load() == nil)
        #expect(keychain.accounts(service: service).isEmpty)
        try await store.clear()  // clearing nothing is fine
    }

    @Test("the item holds the same JSON a file store writes")
    func sameJSONAsTheFileStore() async throws {
        let credentials = TokenStoreTesting.credentials()
        try await KeychainTokenStore(service: service, keychain: keychain).save(credentials)
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tokens.json")
            try await FileTokenStore(fileURL: url).save(credentials)
            #expect(keychain.storedData(of: KeychainTesting.item(service)) == (try TokenStoreTesting.bytes(at: url)))
        }
    }

    @Test("by default the item is in the data-protection keychain, readable after first unlock on this device only")
    func defaults() async throws {
        try await KeychainTokenStore(service: service, keychain: keychain).save(TokenStoreTesting.credentials())
        #expect(keychain.storedAccessibility(of: KeychainTesting.item(service)) == .afterFirstUnlockThisDeviceOnly)
        #expect(keychain.storedData(of: KeychainTesting.item(service, dataProtection: false)) == nil)
    }

    @Test("the legacy file keychain and another accessibility are used when the options say so")
    func legacyKeychainAndAccessibility() async throws {
        let options = KeychainTokenStore.Options(keychain: .legacyFile, accessibility: .whenUnlocked)
        let store = KeychainTokenStore(service: service, options: options, keychain: keychain)
        let credentials = TokenStoreTesting.credentials()
        try await store.save(credentials)
        let legacy = KeychainTesting.item(service, dataProtection: false)
        #expect(keychain.storedAccessibility(of: legacy) == .whenUnlocked)
        #expect(keychain.storedData(of: KeychainTesting.item(service)) == nil)
        #expect(try await store.load() == credentials)
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == nil)
    }

    @Test("an item in an access group is found by a store of the same group and not by one of another")
    func accessGroups() async throws {
        let keychain = InMemoryKeychain(entitledAccessGroups: ["TEAMID.com.example.app", "TEAMID.com.example.shared"])
        let shared = KeychainTokenStore(service: service, accessGroup: "TEAMID.com.example.shared", keychain: keychain)
        let credentials = TokenStoreTesting.credentials()
        try await shared.save(credentials)
        #expect(try await KeychainTokenStore(service: service, accessGroup: "TEAMID.com.example.shared", keychain: keychain).load() == credentials)
        #expect(try await KeychainTokenStore(service: service, accessGroup: "TEAMID.com.example.app", keychain: keychain).load() == nil)
        // Without a group, a query searches every group the app is entitled to.
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == credentials)
    }

    @Test("neither the description nor an error shows a token")
    func noSecretsInDescriptions() async throws {
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let credentials = TokenStoreTesting.credentials()
        try await store.save(credentials)
        keychain.failing(.update, with: KeychainStatus(code: -25293))
        let error = await TokenStoreTesting.expectStoreError { try await store.save(TokenStoreTesting.credentials("other")) }
        for text in ["\(store)", String(reflecting: store), "\(String(describing: error))", error?.localizedDescription ?? ""] {
            #expect(!text.contains("secret-"), "\(text)")
        }
        #expect("\(store)" == "KeychainTokenStore(\(service)/credentials)")
    }
}
