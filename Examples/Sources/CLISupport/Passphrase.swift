import Foundation
import TokenStore

/// Where the encrypted and postgres stores' key comes from, in this order: a key file
/// (`--key-file`, `APP_STORE_KEY_FILE`); the `APP_STORE_PASSPHRASE` variable; a prompt without
/// echo when standard input is a terminal. With none of them the program stops with the store
/// error status: it never waits for an answer nobody can give (CI, cron, pipes).
enum Passphrase {
    /// The key for the encrypted file `storeFile`; a new file (`isNewSession` and no file yet)
    /// asks for its passphrase twice.
    static func keySource(keyFile: URL?, storeFile: URL, isNewSession: Bool) throws(CLIError) -> EncryptedFileTokenStore.KeySource {
        let creating = isNewSession && !FileManager.default.fileExists(atPath: storeFile.path)
        return try keySource(keyFile: keyFile, store: "the encrypted store \(storeFile.path)", place: storeFile.path,
                             confirm: creating).key
    }

    /// The key for the store described by `store` (for messages) and `place` (for the prompt:
    /// `Passphrase for PLACE: `). Returns what was typed at the prompt too, if anything was, so
    /// that the caller can ask for it again (``confirm(_:)``) once it knows the store is new.
    static func keySource(keyFile: URL?, store: String, place: String, confirm: Bool) throws(CLIError)
        -> (key: EncryptedFileTokenStore.KeySource, typed: String?) {
        if let keyFile {
            return (.keyFile(keyFile), nil)
        }
        if let passphrase = Environment.value(Environment.passphrase) {
            return (.passphrase(passphrase), nil)
        }
        guard Terminal.isInteractive else {
            throw .store(
                "\(store) needs a passphrase, and there is no terminal to ask on",
                hint: "set APP_STORE_PASSPHRASE or pass --key-file PATH"
            )
        }
        let prompt = confirm ? "New passphrase for \(place): " : "Passphrase for \(place): "
        guard let first = try Terminal.readSecret(prompt: prompt), !first.isEmpty else {
            throw .store("no passphrase entered")
        }
        if confirm {
            try Self.confirm(first)
        }
        return (.passphrase(first), first)
    }

    /// Asks for the passphrase again and stops unless it is `first`.
    static func confirm(_ first: String) throws(CLIError) {
        guard let second = try Terminal.readSecret(prompt: "Repeat the passphrase: "), second == first else {
            throw .store("the two passphrases differ")
        }
    }
}
