import Foundation
import PostgresTokenStore
import Testing
import TokenStore

@Suite("Failures are typed, transient when they pass, and never leak a secret", .postgres)
struct FailureTests {
    @Test("a refused connection is a transient unavailable error, soon, without the password")
    func connectionRefused() async throws {
        let url = "postgres://appsdk:\(TestDatabase.password)@127.0.0.1:1/appsdk"
        let store = try await PostgresTokenStore(
            url: url, account: "kim", key: TestDatabase.key(1), options: .init(connectionTimeout: .seconds(1))
        )
        let clock = ContinuousClock()
        let start = clock.now
        for operation in ["load", "save", "clear", "section"] {
            do {
                switch operation {
                case "load": _ = try await store.load()
                case "save": try await store.save(TestDatabase.credentials())
                case "clear": try await store.clear()
                default: try await store.withExclusiveAccess {}
                }
                Issue.record("\(operation) worked without a database")
            } catch let error as TokenStoreError {
                #expect(error.kind == .unavailable, "\(operation)")
                #expect(error.isTransient)
                #expect(!"\(error)".contains(TestDatabase.password))
                #expect(error.path?.contains("postgres://appsdk@127.0.0.1:1/appsdk") == true)
            }
        }
        #expect(clock.now - start < .seconds(10))
        await store.shutdown()
    }

    @Test("a wrong password is a database error that names the login, not the password")
    func wrongPassword() async throws {
        let url = try #require(TestDatabase.url).replacingOccurrences(of: TestDatabase.password, with: "not-the-password")
        let store = try await PostgresTokenStore(
            url: url, account: "kim", key: TestDatabase.key(1), options: .init(connectionTimeout: .seconds(3))
        )
        do {
            _ = try await store.load()
            Issue.record("connected with a wrong password")
        } catch {
            // The pool retries a refused login until the timeout; the store then asks once why.
            #expect(error.kind == .database, "\(error)")
            #expect(!error.isTransient)
            #expect((error.underlyingError as? PostgresTokenStoreFailure)?.sqlState == "28P01", "\(error)")
            #expect("\(error)".contains("refused the login"))
            #expect(!"\(error)".contains("not-the-password"))
        }
        await store.shutdown()
    }

    @Test("concurrent saves from two stores never leave a half-written row")
    func concurrentSaves() async throws {
        let table = TestDatabase.uniqueTable()
        let first = try await TestDatabase.store(table: table)
        let second = try await TestDatabase.store(table: table)
        let written = (0..<40).map { TestDatabase.credentials("\($0)") }
        try await withThrowingTaskGroup(of: Credentials?.self) { group in
            for (index, credentials) in written.enumerated() {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.save(credentials); return nil }
                group.addTask { try await store.load() }
            }
            for try await loaded in group {
                if let loaded { #expect(written.contains(loaded), "a load returned a mix") }
            }
        }
        let last = try #require(try await first.load())
        #expect(written.contains(last))
        #expect(try await second.load() == last)
        #expect(try await TestDatabase.rowBytes(table: table).count == 1)
        await first.shutdown()
        await second.shutdown()
    }

    @Test("descriptions, mirrors and errors hold no password, key or token")
    func noSecretInDescriptions() async throws {
        let passphrase = "a passphrase nobody may print"
        let table = TestDatabase.uniqueTable()
        let store = try await TestDatabase.store(
            table: table, encryption: .key(.passphrase(passphrase, derivation: .init(opsLimit: 1, memoryLimit: 8192)))
        )
        let credentials = TestDatabase.credentials()
        try await store.save(credentials)
        let wrong = try await TestDatabase.store(table: table, encryption: .key(TestDatabase.key(9)))
        var texts = [store.description, String(reflecting: store)]
        var dumped = ""
        dump(store, to: &dumped)
        texts.append(dumped)
        do {
            _ = try await wrong.load()
        } catch {
            texts += ["\(error)", String(reflecting: error)]
            var dumpedError = ""
            dump(error, to: &dumpedError)
            texts.append(dumpedError)
        }
        for text in texts {
            for secret in [TestDatabase.password, passphrase, credentials.accessToken.rawValue, credentials.refreshToken] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
        #expect(store.description.contains("account kim"))
        await store.shutdown()
        await wrong.shutdown()
    }

    @Test("a URL the store cannot read is invalidConfiguration, without the password")
    func invalidURLs() async throws {
        for url in ["mysql://u:hunter22@h/db", "postgres://:hunter22@h/db", "postgres://u:hunter22@/db",
                    "postgres://u:hunter22@h/db?sslmode=sometimes", "postgres://u:hunter22@h/db?host=/tmp"] {
            do {
                _ = try await PostgresTokenStore(url: url, account: "kim", key: TestDatabase.key(1))
                Issue.record("accepted \(url)")
            } catch {
                #expect(error.kind == .invalidConfiguration, "\(url)")
                #expect(!"\(error)".contains("hunter22"))
            }
        }
        await #expect(throws: TokenStoreError.self) {
            _ = try await PostgresTokenStore(url: "postgres://u@h/db", account: "", key: TestDatabase.key(1))
        }
    }

    @Test("a store on a stopped client answers unavailable")
    func afterShutdown() async throws {
        let store = try await TestDatabase.store(table: TestDatabase.uniqueTable(), connectionTimeout: .seconds(5))
        try await store.save(TestDatabase.credentials())
        await store.shutdown()
        do {
            _ = try await store.load()
            Issue.record("loaded after shutdown")
        } catch {
            #expect(error.kind == .unavailable)
        }
    }
}
