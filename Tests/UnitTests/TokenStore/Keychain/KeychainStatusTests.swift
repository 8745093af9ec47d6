import Foundation
import Testing
import AppSDKTesting
import TokenStore
#if canImport(Security)
import Security
#endif

@Suite("Each Keychain status becomes the store error that tells the engine what to do")
struct KeychainStatusTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()

    @Test("a prewarmed launch (never unlocked since the device started) is transient for load, save and clear, and changes nothing")
    func beforeFirstUnlockIsTransient() async throws {
        let credentials = TokenStoreTesting.credentials()
        try await KeychainTokenStore(service: service, keychain: keychain).save(credentials)
        keychain.setDeviceState(.beforeFirstUnlock)
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let operations: [(String, @Sendable () async throws -> Void)] = [
            ("load", { _ = try await store.load() }),
            ("save", { try await store.save(TokenStoreTesting.credentials("other")) }),
            ("clear", { try await store.clear() }),
        ]
        for (name, operation) in operations {
            let error = await TokenStoreTesting.expectStoreError { try await operation() }
            #expect(error?.kind == .unavailable, "\(name)")
            #expect(error?.isTransient == true, "\(name)")
            #expect(error?.localizedDescription.contains("errSecInteractionNotAllowed") == true, "\(name): \(String(describing: error))")
            #expect(error?.path == "keychain item \(service)/credentials")
        }
        keychain.setDeviceState(.unlocked)
        #expect(try await store.load() == credentials)
    }

    @Test("a locked device reads an after-first-unlock item but not a when-unlocked one, which is transient")
    func lockedDevice() async throws {
        let afterFirstUnlock = KeychainTokenStore(service: service, keychain: keychain)
        let whenUnlockedService = KeychainTesting.uniqueService()
        let whenUnlocked = KeychainTokenStore(
            service: whenUnlockedService, options: .init(accessibility: .whenUnlockedThisDeviceOnly), keychain: keychain)
        try await afterFirstUnlock.save(TokenStoreTesting.credentials("a"))
        try await whenUnlocked.save(TokenStoreTesting.credentials("b"))
        keychain.setDeviceState(.locked)
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() != nil)
        let error = await TokenStoreTesting.expectStoreError {
            _ = try await KeychainTokenStore(service: whenUnlockedService, keychain: keychain).load()
        }
        #expect(error?.isTransient == true)
    }

    @Test("an access group the app is not entitled to is a keychain error that names the group and the entitlement")
    func missingEntitlement() async throws {
        let store = KeychainTokenStore(service: service, accessGroup: "TEAMID.com.example.other", keychain: keychain)
        let error = await TokenStoreTesting.expectStoreError { try await store.save(TokenStoreTesting.credentials()) }
        #expect(error?.kind == .keychain)
        #expect(error?.isTransient == false)
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("TEAMID.com.example.other") && message.contains("keychain-access-groups"), "\(message)")
        #expect(message.contains("-34018"), "\(message)")
    }

    @Test("a program without any keychain entitlement is told to use the legacy file keychain")
    func noEntitlementAtAll() async throws {
        let keychain = InMemoryKeychain(entitledAccessGroups: [])
        let error = await TokenStoreTesting.expectStoreError {
            _ = try await KeychainTokenStore(service: service, keychain: keychain).load()
        }
        #expect(error?.kind == .keychain)
        #expect(error?.reason.contains(".legacyFile") == true, "\(String(describing: error))")
        let legacy = KeychainTokenStore(service: service, options: .init(keychain: .legacyFile), keychain: keychain)
        try await legacy.save(TokenStoreTesting.credentials())
        #expect(try await legacy.load() != nil)
    }

    @Test("any other status is a keychain error with its OSStatus, and a failed save or clear leaves the item as it was",
          arguments: [InMemoryKeychain.Operation.copy, .add, .update, .delete])
    func otherStatuses(operation: InMemoryKeychain.Operation) async throws {
        let credentials = TokenStoreTesting.credentials()
        let store = KeychainTokenStore(service: service, keychain: keychain)
        if operation != .add { try await store.save(credentials) }
        keychain.failing(operation, with: KeychainStatus(code: -25293))
        let error = await TokenStoreTesting.expectStoreError {
            switch operation {
            case .copy: _ = try await KeychainTokenStore(service: service, keychain: keychain).load()
            case .add, .update: try await store.save(TokenStoreTesting.credentials("other"))
            case .delete: try await store.clear()
            }
        }
        #expect(error?.kind == .keychain)
        #expect(error?.reason.contains("OSStatus -25293") == true, "\(String(describing: error))")
        keychain.failing(operation, with: nil)
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == (operation == .add ? nil : credentials))
    }

    @Test("an item added by another writer between the update and the add is replaced, not reported as a duplicate")
    func duplicateOnAddIsReplaced() async throws {
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let theirs = TokenStoreTesting.credentials("theirs")
        try await KeychainTokenStore(service: service, keychain: keychain).save(theirs)
        keychain.failing(.update, with: .itemNotFound, times: 1)   // missing at the update, there at the add
        let ours = TokenStoreTesting.credentials("ours")
        try await store.save(ours)
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == ours)
    }

    #if canImport(Security)
    @Test("the portable statuses are the Security framework's errSec codes")
    func statusesMatchSecurity() {
        #expect(KeychainStatus.success.code == errSecSuccess)
        #expect(KeychainStatus.itemNotFound.code == errSecItemNotFound)
        #expect(KeychainStatus.duplicateItem.code == errSecDuplicateItem)
        #expect(KeychainStatus.interactionNotAllowed.code == errSecInteractionNotAllowed)
        #expect(KeychainStatus.missingEntitlement.code == errSecMissingEntitlement)
    }
    #endif
}
