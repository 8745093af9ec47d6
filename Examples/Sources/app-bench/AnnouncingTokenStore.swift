import Foundation
import TokenStore

/// A store that says on standard output when this process enters the exclusive section
/// (`section-entered <pid>`), so that a fleet run can kill the process that holds the lock.
struct AnnouncingTokenStore: TokenStore {
    let wrapped: any TokenStore

    func load() async throws(TokenStoreError) -> Credentials? { try await wrapped.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) { try await wrapped.save(credentials) }
    func clear() async throws(TokenStoreError) { try await wrapped.clear() }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await wrapped.withExclusiveAccess {
            FileHandle.standardOutput.write(Data("section-entered \(getpid())\n".utf8))
            return try await body()
        }
    }
}
