import Foundation
import TokenStore

/// Where the shared store lives: a file (and key file) or a database.
struct WorkerStore: Sendable {
    var choice: StoreChoice
    var path: String
    var keyFile: String
    /// The database URL comes from `APP_BENCH_DATABASE_URL`, never from the command line,
    /// so its password is not visible in the process list.
    var account: String

    /// Arguments that open the same store in a worker.
    var arguments: [String] {
        ["--store", choice.rawValue, "--path", path, "--key-file", keyFile, "--account", account]
    }

    func open() async throws -> any TokenStore {
        switch choice {
        case .file:
            return FileTokenStore(fileURL: URL(fileURLWithPath: path))
        case .encrypted:
            return try await EncryptedFileTokenStore(fileURL: URL(fileURLWithPath: path), key: .keyFile(URL(fileURLWithPath: keyFile)))
        case .postgres:
            return try await PostgresStoreFactory.open(account: account, keyFile: URL(fileURLWithPath: keyFile))
        }
    }
}
