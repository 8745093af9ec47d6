public import SessionEngine
import TokenStore

extension DPoPKeyKind {
    /// ES256 software keys signed with swift-crypto (``ES256Signer``): the ES256 kind on Linux,
    /// where the SDK has no P-256 of its own. Its keys are CryptoKit's (the 32-byte `d`), so a
    /// session an Apple app made with ``SessionEngine/DPoPKeyKind/es256`` signs here too.
    ///
    /// ```swift
    /// var configuration = SessionService.Configuration.oauth2(oauth)
    /// configuration.dpop = DPoPConfiguration(keys: .swiftCryptoES256)
    /// ```
    public static let swiftCryptoES256 = DPoPKeyKind(algorithm: "ES256", make: {
        let signer = ES256Signer.generate()
        return try DPoPKey(algorithm: "ES256", publicKey: signer.publicKey, privateKey: signer.rawRepresentation)
    }, signer: { key in
        guard key.algorithm == "ES256",
              let signer = try key.withPrivateKey({ scalar in try ES256Signer(rawRepresentation: scalar) }) else {
            throw DPoPKeyError("the swift-crypto ES256 kind signs with software P-256 keys only")
        }
        return signer
    })
}
