#if EncryptedTokenStore
public import NetworkService

/// The SDK's EdDSA signer for the repository's in-process benchmarks (`Benchmarks/`, a package of
/// its own that cannot reach `package` declarations). Not API: behind the `Benchmarks` SPI, may
/// change or go in any release.
@_spi(Benchmarks)
public enum EdDSASignerBenchmark {
    /// The EdDSA (Ed25519, libsodium) signer of the key whose 32-byte seed is `seed`.
    /// - Throws: ``NetworkService/DPoPSigningError`` when the seed is not 32 bytes or libsodium
    ///   cannot be used.
    public static func signer(seed: [UInt8]) throws(DPoPSigningError) -> any DPoPSigner {
        try EdDSASigner(seed: seed)
    }
}
#endif
