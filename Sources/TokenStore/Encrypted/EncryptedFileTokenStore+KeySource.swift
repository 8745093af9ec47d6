#if EncryptedTokenStore
public import Foundation

extension EncryptedFileTokenStore {
    /// Where an ``EncryptedFileTokenStore`` gets its 32-byte key.
    ///
    /// - ``passphrase(_:derivation:)``: something a person types; stretched with Argon2id
    ///   when the store opens (slow on purpose).
    /// - ``keyFile(_:)``: a file of 32 random bytes, created with mode 0600 when missing;
    ///   whoever can read it can read the store, so keep it somewhere else than the store
    ///   file (or let the OS protect it).
    /// - ``rawKey(_:)``: 32 bytes you keep yourself, for example in the Keychain.
    ///
    /// Its description and mirror never show the passphrase or key.
    public struct KeySource: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        enum Storage: Sendable {
            case passphrase(String, KeyDerivation)
            case keyFile(URL)
            case rawKey([UInt8])
        }

        let storage: Storage

        /// A passphrase, stretched into the key with Argon2id (`crypto_pwhash`) once when
        /// the store opens. It is normalised to Unicode NFC first, so the same characters
        /// typed on different systems give the same key. A Swift `String` cannot be wiped:
        /// the store copies it into wiped memory, the caller's copy is the caller's.
        /// - Parameters:
        ///   - passphrase: Not empty.
        ///   - derivation: Argon2id cost for a new file; an existing file's own parameters
        ///     (from its header) are used to read and rewrite it.
        public static func passphrase(_ passphrase: String, derivation: KeyDerivation = .interactive) -> KeySource {
            KeySource(storage: .passphrase(passphrase, derivation))
        }

        /// A file holding exactly 32 key bytes. When it does not exist, the store creates it
        /// (and its folder, 0700) with 32 random bytes and mode 0600; several processes
        /// opening at once agree on one key. A key file that group or others can access is
        /// refused unless ``FileTokenStore/Options/allowsInsecurePermissions`` is set.
        public static func keyFile(_ fileURL: URL) -> KeySource {
            KeySource(storage: .keyFile(fileURL))
        }

        /// Key bytes you supply: exactly 32 (`crypto_aead_xchacha20poly1305_ietf_KEYBYTES`).
        /// The store copies them into wiped memory; your copy is yours to wipe.
        public static func rawKey(_ bytes: some Collection<UInt8>) -> KeySource {
            KeySource(storage: .rawKey(Array(bytes)))
        }

        /// What kind of key it is, e.g. `passphrase (Argon2id, opslimit 2, memlimit 64 MiB)`; never the secret.
        public var description: String {
            switch storage {
            case .passphrase(_, let derivation): "passphrase (\(derivation))"
            case .keyFile(let url): "key file \(url.standardizedFileURL.path)"
            case .rawKey(let bytes): "raw key (\(bytes.count) bytes)"
            }
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// A mirror without the secret, so `dump(_:)` and debuggers do not show it.
        public var customMirror: Mirror {
            Mirror(self, children: ["kind": description])
        }
    }
}
#endif
