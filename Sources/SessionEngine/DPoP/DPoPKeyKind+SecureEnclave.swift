#if canImport(CryptoKit) && !os(Linux)
import Foundation
import NetworkService
import TokenStore

extension DPoPKeyKind {
    /// ES256 keys made in the Secure Enclave, on Apple devices that have one: the private key
    /// never leaves the enclave. The store keeps a reference to the key (the enclave's wrapped
    /// form, which only this device's enclave can use), so the processes of this device that
    /// share the store (an app and its extensions through a Keychain access group) sign with
    /// it; a session shared with other machines needs a software kind (``eddsa``, `es256`).
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
        return try DPoPKey(algorithm: "ES256", publicKey: signer.publicKey,
                           reference: referencePrefix + signer.dataRepresentation.base64EncodedString())
    }, signer: { key in
        guard key.algorithm == "ES256", let reference = key.reference, reference.hasPrefix(referencePrefix),
              let data = Data(base64Encoded: String(reference.dropFirst(referencePrefix.count))) else {
            throw DPoPKeyError("the Secure Enclave kind signs with Secure Enclave keys only")
        }
        let signer: SecureEnclaveSigner
        do {
            signer = try SecureEnclaveSigner(dataRepresentation: data)
        } catch {
            throw DPoPKeyError(error.reason)
        }
        guard signer.publicKey.thumbprint == key.thumbprint else {
            throw DPoPKeyError("the Secure Enclave key is not the session's key")
        }
        return signer
    })

    /// What a Secure Enclave key's reference starts with, to tell it from an app's own references.
    private static let referencePrefix = "secure-enclave:"
}
#endif
