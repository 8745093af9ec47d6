#if canImport(CryptoKit) && !os(Linux)
import Foundation
import NetworkService
import TokenStore

extension DPoPKeyKind {
    /// ES256 keys made in the Secure Enclave, on Apple devices that have one: the private key
    /// never leaves the enclave. The store keeps the enclave's wrapped form of the key (the `se`
    /// member of the stored key, docs/STORES.md), which only this device's enclave can use, so
    /// the processes of this device that share the store (an app and its extensions through a
    /// Keychain access group) sign with it; a session shared with other machines needs a
    /// software kind (``eddsa``, `es256`).
    ///
    /// Making a key throws ``/TokenStore/DPoPKeyError`` on a device without a Secure Enclave
    /// (the Simulator, say); a session whose key this device's enclave cannot use (a store
    /// copied from another device) fails its calls with ``SessionError/Kind/dpopKeyUnusable``.
    public static let secureEnclaveES256 = DPoPKeyKind(algorithm: "ES256", make: {
        let signer: SecureEnclaveSigner
        do {
            signer = try SecureEnclaveSigner.generate()
        } catch {
            throw DPoPKeyError(error.reason)
        }
        guard case let .ec(_, x, y) = signer.publicKey.parameters else {
            throw DPoPKeyError("the Secure Enclave made a key that is not on P-256")
        }
        return DPoPKey(algorithm: "ES256", coordinates: .ec(crv: "P-256", x: x, y: y),
                       material: .secureEnclave(Array(signer.dataRepresentation)))
    }, signer: { key in
        guard key.algorithm == "ES256", case let .secureEnclave(blob) = key.material else {
            throw DPoPKeyError("the Secure Enclave kind signs with Secure Enclave keys only")
        }
        let signer: SecureEnclaveSigner
        do {
            signer = try SecureEnclaveSigner(dataRepresentation: Data(blob))
        } catch {
            throw DPoPKeyError(error.reason)
        }
        guard signer.publicKey == key.publicKey else {
            throw DPoPKeyError("the Secure Enclave key is not the session's key")
        }
        return signer
    })
}
#endif
