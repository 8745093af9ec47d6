@testable import CLISupport
import Testing
import TokenStore

/// How `--store postgres` names its database in prompts and messages: never with the password.
@Suite("The postgres store's database, as printed")
struct PostgresStoreURLTests {
    @Test("the URL without its password and query", arguments: [
        ("postgres://kim:s3cret@db.example.com:5433/app?sslmode=require", "postgres://kim@db.example.com:5433/app"),
        ("postgresql://kim:s3cret@127.0.0.1/app", "postgres://kim@127.0.0.1:5432/app"),
        ("postgres://kim:s3cret@[::1]:6000/app", "postgres://kim@[::1]:6000/app"),
        ("postgres://k%40m:s3cret@host/", "postgres://k@m@host:5432/k@m"),
    ])
    func redacted(_ url: String, _ expected: String) throws {
        let text = try PostgresStore.redacted(url)
        #expect(text == expected)
        #expect(!text.contains("s3cret"))
    }

    @Test("a URL that is not a postgres URL is a usage error that does not quote it",
          arguments: ["mysql://kim:s3cret@host/app", "postgres://kim:s3cret@/app", "kim:s3cret"])
    func notPostgres(_ url: String) {
        #expect {
            _ = try PostgresStore.redacted(url)
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.status == .usage && !error.description.contains("s3cret")
        }
    }

    @Test("the store's errors exit with 66 with the database in the message and a hint")
    func mapping() {
        let location = "postgres://kim@127.0.0.1:5432/app, table app_token_store, account default"
        for kind in [TokenStoreError.Kind.unavailable, .decryptionFailed, .init(rawValue: "database")] {
            let error = CLIError(TokenStoreError(kind: kind, path: location, reason: "reading the credentials failed") as any Error)
            #expect(error.status == .store, "\(kind)")
            #expect(error.description.contains(location))
            #expect(error.hint != nil, "\(kind)")
        }
    }
}
