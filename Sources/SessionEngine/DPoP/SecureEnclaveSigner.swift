#if canImport(CryptoKit) && !os(Linux)
import CryptoKit
import Foundation
package import NetworkService
import Security

/// Signs DPoP proofs with ES256 using a P-256 key inside the Secure Enclave: the private key
/// never leaves the enclave. What the store keeps is the enclave's wrapped form of the key
/// (`dataRepresentation`), which only this device's enclave can use.
///
/// The signer's description and mirror show its public key's thumbprint only.
package struct SecureEnclaveSigner: DPoPSigner, CustomStringConvertible, CustomReflectable {
    /// `ES256`.
    package var algorithm: String { "ES256" }
    /// The EC P-256 public key.
    package let publicKey: DPoPPublicKey
    private let key: SecureEnclave.P256.Signing.PrivateKey

    /// A signer of a new key made in the enclave.
    /// - Throws: ``/NetworkService/DPoPSigningError`` when the device has no Secure Enclave or
    ///   it made no key.
    package static func generate() throws(DPoPSigningError) -> SecureEnclaveSigner {
        guard SecureEnclave.isAvailable else { throw DPoPSigningError("this device has no Secure Enclave") }
        // Usable after the first unlock, so a refresh in the background works while the device is
        // locked; bound to this device (the enclave's keys never leave it anyway).
        var failure: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, &failure) else {
            throw DPoPSigningError("the Secure Enclave key's access control could not be made",
                                   underlying: failure?.takeRetainedValue())
        }
        do {
            return SecureEnclaveSigner(try SecureEnclave.P256.Signing.PrivateKey(accessControl: access))
        } catch {
            throw DPoPSigningError("the Secure Enclave made no key", underlying: error)
        }
    }

    /// The signer of the enclave key whose wrapped form is `dataRepresentation`.
    /// - Throws: ``/NetworkService/DPoPSigningError`` when this device's enclave cannot use it
    ///   (a key made on another device, or damaged).
    package init(dataRepresentation: Data) throws(DPoPSigningError) {
        do {
            self.init(try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: dataRepresentation))
        } catch {
            throw DPoPSigningError("this device's Secure Enclave cannot use the key", underlying: error)
        }
    }

    private init(_ key: SecureEnclave.P256.Signing.PrivateKey) {
        self.key = key
        let point = Array(key.publicKey.rawRepresentation)  // x ‖ y, 32 bytes each
        publicKey = .ec(crv: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
    }

    /// The key wrapped by the enclave, for the store: useless on another device.
    package var dataRepresentation: Data { key.dataRepresentation }

    /// The 64-byte `r ‖ s` signature of `input`, made inside the enclave.
    package func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
        do {
            return Array(try key.signature(for: input).rawRepresentation)
        } catch {
            throw DPoPSigningError("the Secure Enclave did not sign", underlying: error)
        }
    }

    /// For example `SecureEnclaveSigner(thumbprint 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I)`.
    package var description: String { "SecureEnclaveSigner(thumbprint \(publicKey.thumbprint))" }

    /// A mirror with the public key only.
    package var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
#endif
