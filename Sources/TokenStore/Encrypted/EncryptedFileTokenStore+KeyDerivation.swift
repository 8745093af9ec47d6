#if EncryptedTokenStore
import CSodium

extension EncryptedFileTokenStore {
    /// Argon2id cost parameters for turning a passphrase into a key: how many passes
    /// (`opsLimit`) over how much memory (`memoryLimit`, bytes). Higher costs slow down
    /// whoever guesses passphrases from a stolen file, and the store's opening alike.
    public struct KeyDerivation: Sendable, Hashable, CustomStringConvertible {
        /// Argon2id passes (`opslimit`).
        public var opsLimit: UInt64
        /// Argon2id memory in bytes (`memlimit`).
        public var memoryLimit: UInt64

        /// Custom parameters. They must lie within `acceptedOpsLimits` and
        /// `acceptedMemoryLimits`, checked when the store opens. Tests may use the minimum
        /// (`opsLimit: 1, memoryLimit: 8192`) to stay fast; real use should not.
        public init(opsLimit: UInt64, memoryLimit: UInt64) {
            self.opsLimit = opsLimit
            self.memoryLimit = memoryLimit
        }

        /// libsodium's `crypto_pwhash_OPSLIMIT_INTERACTIVE`/`MEMLIMIT_INTERACTIVE`: 2 passes,
        /// 64 MiB. The default: a program that opens the store at each start (a CLI) stays responsive.
        public static var interactive: KeyDerivation {
            KeyDerivation(
                opsLimit: UInt64(crypto_pwhash_opslimit_interactive()),
                memoryLimit: UInt64(crypto_pwhash_memlimit_interactive())
            )
        }

        /// libsodium's `crypto_pwhash_OPSLIMIT_MODERATE`/`MEMLIMIT_MODERATE`: 3 passes,
        /// 256 MiB; roughly five times the cost of ``interactive``.
        public static var moderate: KeyDerivation {
            KeyDerivation(
                opsLimit: UInt64(crypto_pwhash_opslimit_moderate()),
                memoryLimit: UInt64(crypto_pwhash_memlimit_moderate())
            )
        }

        /// Accepted `opsLimit` values: libsodium's minimum (1) to ``moderate``'s (3), the most
        /// the SDK writes. A file claiming more is refused before any key is derived, so an
        /// edited header cannot make one read cost seconds of work.
        package static var acceptedOpsLimits: ClosedRange<UInt64> {
            UInt64(crypto_pwhash_opslimit_min())...UInt64(crypto_pwhash_opslimit_moderate())
        }

        /// Accepted `memoryLimit` values: libsodium's minimum (8 KiB) to ``moderate``'s
        /// (256 MiB), the most the SDK writes. A file claiming more is refused before any key
        /// is derived, so an edited header cannot make one read take 1 GiB.
        package static var acceptedMemoryLimits: ClosedRange<UInt64> {
            UInt64(crypto_pwhash_memlimit_min())...UInt64(crypto_pwhash_memlimit_moderate())
        }

        /// `Argon2id, opslimit 2, memlimit 64 MiB`.
        public var description: String {
            let memory = memoryLimit % (1 << 20) == 0 ? "\(memoryLimit >> 20) MiB" : "\(memoryLimit) bytes"
            return "Argon2id, opslimit \(opsLimit), memlimit \(memory)"
        }

        func validate() throws(TokenStoreError) {
            guard Self.acceptedOpsLimits.contains(opsLimit), Self.acceptedMemoryLimits.contains(memoryLimit) else {
                throw TokenStoreError(
                    kind: .invalidKey,
                    reason: "Argon2id parameters out of range (\(self)); opslimit must be in \(Self.acceptedOpsLimits), memlimit in \(Self.acceptedMemoryLimits)"
                )
            }
        }
    }
}
#endif
