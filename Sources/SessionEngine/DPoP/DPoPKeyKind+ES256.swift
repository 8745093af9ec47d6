#if canImport(CryptoKit)
import CryptoKit
import TokenStore
import NetworkService

extension DPoPKeyKind {
    /// ES256 (ECDSA on P-256) software keys, signed with CryptoKit: on Apple platforms. On Linux,
    /// the `DPoPSwiftCrypto` integration package's kind signs the same keys.
    public static let es256 = DPoPKeyKind(algorithm: "ES256", make: {
        let signer = ES256Signer.generate()
        var scalar = signer.rawRepresentation
        defer { DPoPPrivateKeyBytes.wipe(&scalar) }
        return try DPoPKey(algorithm: "ES256", publicKey: signer.publicKey, privateKey: scalar)
    }, signer: { key in
        guard key.algorithm == "ES256",
              let signer = try key.withPrivateKey({ scalar in try ES256Signer(rawRepresentation: scalar) }) else {
            throw DPoPKeyError("the ES256 kind signs with software P-256 keys only")
        }
        return signer
    })
}
#endif
