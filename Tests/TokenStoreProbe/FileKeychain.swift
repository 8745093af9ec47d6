import Foundation
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A keychain that several probe processes share: one file per item in a folder, answering
/// like the Keychain (an add of an existing item is a duplicate, a missing item is not found).
/// Each change is atomic (a new file linked or renamed into place), so a reader sees the old
/// or the new data, as with the real Keychain.
struct FileKeychain: KeychainItems {
    let folder: URL

    init(folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ item: KeychainItem) -> String {
        let name = "\(item.usesDataProtectionKeychain)-\(item.accessGroup ?? "")-\(item.service)-\(item.account)"
        return folder.appendingPathComponent(Data(name.utf8).base64EncodedString()
            .replacingOccurrences(of: "/", with: "_")).path
    }

    /// Writes `data` to a new temporary file and returns its path.
    private func temporary(_ data: [UInt8]) -> String? {
        let path = folder.appendingPathComponent(".tmp-\(UUID().uuidString)").path
        return FileManager.default.createFile(atPath: path, contents: Data(data)) ? path : nil
    }

    func copyData(of item: KeychainItem) -> (status: KeychainStatus, data: [UInt8]?) {
        guard let data = FileManager.default.contents(atPath: path(item)) else { return (.itemNotFound, nil) }
        return (.success, Array(data))
    }

    func add(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        guard let temporary = temporary(data) else { return KeychainStatus(code: -1) }
        defer { unlink(temporary) }
        if link(temporary, path(item)) == 0 { return .success }
        return errno == EEXIST ? .duplicateItem : KeychainStatus(code: -1)
    }

    func update(_ item: KeychainItem, data: [UInt8], accessibility: KeychainTokenStore.Accessibility) -> KeychainStatus {
        guard access(path(item), F_OK) == 0 else { return .itemNotFound }
        guard let temporary = temporary(data) else { return KeychainStatus(code: -1) }
        return rename(temporary, path(item)) == 0 ? .success : KeychainStatus(code: -1)
    }

    func delete(_ item: KeychainItem) -> KeychainStatus {
        if unlink(path(item)) == 0 { return .success }
        return errno == ENOENT ? .itemNotFound : KeychainStatus(code: -1)
    }
}
