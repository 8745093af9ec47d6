import AppRepository
import AppSDKTesting
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

@Suite("Signing out of a store that cannot be read")
struct SignOutStoreErrorTests {
    @Test("signing out of an unreadable store file throws the store error and leaves the file as it was")
    func unreadableStoreIsKept() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("credentials.json")
        let garbage = Data("{\"version\":1,\"credentials\":{\"accessTo".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: garbage, attributes: [.posixPermissions: 0o600])

        let fake = try FakeAppServer(clock: TestClock())
        let service = RepositoryService(server: fake.server, tokenStore: FileTokenStore(fileURL: file))
        await #expect(throws: TokenStoreError.self) { try await service.signOut() }
        #expect(FileManager.default.contents(atPath: file.path) == garbage)
        #expect(fake.requests.isEmpty)
    }
}
