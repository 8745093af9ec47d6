import Foundation
import Testing
import AppSDKTesting
import TokenStore

@Suite("An item the Keychain store cannot read is never overwritten or deleted")
struct KeychainUnreadableItemTests {
    let keychain = InMemoryKeychain()
    let service = KeychainTesting.uniqueService()
    let garbage = Array(#"{"version":1,"credentials":{"accessToken":"secret-x"}}"#.utf8)
    var item: KeychainItem { KeychainTesting.item(service) }

    @Test("loading it is an unreadable error naming the item, and the item stays as it was")
    func loadLeavesItAlone() async throws {
        keychain.plant(garbage, as: item)
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let error = await TokenStoreTesting.expectStoreError { _ = try await store.load() }
        #expect(error?.kind == .unreadable)
        #expect(error?.path == "keychain item \(service)/credentials")
        #expect(error.map { !"\($0)".contains("secret-x") } == true)
        #expect(keychain.storedData(of: item) == garbage)
    }

    @Test("a save first moves it to <account>.unreadable-<timestamp>, then writes the credentials")
    func saveMovesItAside() async throws {
        keychain.plant(garbage, as: item)
        let store = KeychainTokenStore(service: service, keychain: keychain)
        let credentials = TokenStoreTesting.credentials()
        try await store.save(credentials)
        #expect(try await store.load() == credentials)
        let aside = keychain.accounts(service: service).filter { $0.hasPrefix("credentials.unreadable-") }
        #expect(aside.count == 1)
        #expect(aside.first.map { keychain.storedData(of: KeychainTesting.item(service, account: $0)) } == garbage)
    }

    @Test("an item of another format version is moved aside too; clear moves it aside instead of deleting it")
    func clearMovesItAside() async throws {
        let newer = Array(#"{"version":3,"credentials":{}}"#.utf8)
        keychain.plant(newer, as: item)
        let store = KeychainTokenStore(service: service, keychain: keychain)
        try await store.clear()
        #expect(try await store.load() == nil)
        let accounts = keychain.accounts(service: service)
        #expect(accounts.count == 1 && accounts[0].hasPrefix("credentials.unreadable-"), "\(accounts)")
        #expect(keychain.storedData(of: KeychainTesting.item(service, account: accounts[0])) == newer)
    }

    @Test("moveAsideIfUnreadable says where the item went, and leaves a readable item in place")
    func moveAsideIfUnreadable() async throws {
        let store = KeychainTokenStore(service: service, keychain: keychain)
        #expect(try await store.moveAsideIfUnreadable() == nil)
        try await store.save(TokenStoreTesting.credentials())
        #expect(try await store.moveAsideIfUnreadable() == nil)
        #expect(keychain.accounts(service: service) == ["credentials"])
        // Planted behind the stores' backs (no new change marker): new stores, which have read nothing yet.
        keychain.plant(garbage, as: item)
        let first = try #require(try await KeychainTokenStore(service: service, keychain: keychain).moveAsideIfUnreadable())
        keychain.plant(garbage, as: item)
        let second = try #require(try await KeychainTokenStore(service: service, keychain: keychain).moveAsideIfUnreadable())
        #expect(first != second)   // the same second: `-2` added
        #expect(keychain.accounts(service: service).sorted() == [first, second].sorted())
    }

    @Test("an item that cannot be read because the device is locked is not moved: the save fails transiently")
    func lockedIsNotUnreadable() async throws {
        let store = KeychainTokenStore(service: service, options: .init(accessibility: .whenUnlocked), keychain: keychain)
        let credentials = TokenStoreTesting.credentials()
        try await store.save(credentials)
        keychain.setDeviceState(.locked)
        let error = await TokenStoreTesting.expectStoreError {
            try await KeychainTokenStore(service: service, keychain: keychain).save(TokenStoreTesting.credentials("b"))
        }
        #expect(error?.kind == .unavailable)
        keychain.setDeviceState(.unlocked)
        #expect(keychain.accounts(service: service) == ["credentials"])
        #expect(try await KeychainTokenStore(service: service, keychain: keychain).load() == credentials)
    }
}
