import Foundation
import TokenStore

/// Where the encrypted store's key comes from, in this order: a key file (`--key-file`,
/// `APP_STORE_KEY_FILE`); the `APP_STORE_PASSPHRASE` variable; a prompt without echo when
/// standard input is a terminal. With none of them the program stops with the store error
/// status: it never waits for an answer nobody can give (CI, cron, pipes).
enum Passphrase {
    static func keySource(keyFile: URL?, storeFile: URL, isNewSession: Bool) throws(CLIError) -> EncryptedFileTokenStore.KeySource {
        if let keyFile {
            return .keyFile(keyFile)
        }
        if let passphrase = Environment.value(Environment.passphrase) {
            return .passphrase(passphrase)
        }
        guard Terminal.isInteractive else {
            throw .store(
                "the encrypted store \(storeFile.path) needs a passphrase, and there is no terminal to ask on",
                hint: "set APP_STORE_PASSPHRASE or pass --key-file PATH"
            )
        }
        let creating = isNewSession && !FileManager.default.fileExists(atPath: storeFile.path)
        let prompt = creating ? "New passphrase for \(storeFile.path): " : "Passphrase for \(storeFile.path): "
        guard let first = try Terminal.readSecret(prompt: prompt), !first.isEmpty else {
            throw .store("no passphrase entered")
        }
        if creating {
            guard let second = try Terminal.readSecret(prompt: "Repeat the passphrase: "), second == first else {
                throw .store("the two passphrases differ")
            }
        }
        return .passphrase(first)
    }
}
