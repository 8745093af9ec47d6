#if EncryptedTokenStore
import TokenStore
import NetworkService

extension DPoPKeyKind {
    /// EdDSA (Ed25519, RFC 8037) software keys, signed with libsodium: on every platform with
    /// the `EncryptedTokenStore` trait. The key's seed is kept in the store beside the tokens.
    public static let eddsa = DPoPKeyKind(algorithm: "EdDSA", make: {
        var seed = randomBytes()
        defer { DPoPPrivateKeyBytes.wipe(&seed) }
        let signer = try EdDSASigner(seed: seed)
        return try DPoPKey(algorithm: "EdDSA", publicKey: signer.publicKey, privateKey: seed)
    }, signer: { key in
        guard key.algorithm == "EdDSA",
              let signer = try key.withPrivateKey({ seed in try EdDSASigner(seed: seed) }) else {
            throw DPoPKeyError("the EdDSA kind signs with software Ed25519 keys only")
        }
        return signer
    })
}
#endif
