public import NetworkService
public import TokenStore

/// A kind of DPoP key: how to make a new one and how to sign with a stored one. A value of
/// functions, like ``TokenRefresher``, so an app can bring its own (a key in a hardware token,
/// a key service) beside the SDK's ``eddsa`` and `es256` (Apple platforms):
///
/// ```swift
/// let hardware = DPoPKeyKind(algorithm: "ES256") {
///     let key = try Vault.makeP256Key()
///     return try DPoPKey(algorithm: "ES256", publicKey: key.publicKey, reference: key.id)
/// } signer: { key in
///     try Vault.signer(id: key.reference ?? "")      // a DPoPSigner of your own
/// }
/// ```
///
/// The store keeps the key's private part (or the app's reference) with the session's tokens,
/// so every process sharing the store signs with the same key.
public struct DPoPKeyKind: Sendable {
    /// The JWS algorithm of the kind's keys: `"ES256"` or `"EdDSA"`.
    public let algorithm: String
    /// Makes a new key of this kind (at sign-in).
    public let make: @Sendable () throws -> DPoPKey
    private let makeSigner: @Sendable (DPoPKey) throws -> any DPoPSigner

    /// A kind of key of `algorithm`.
    /// - Parameters:
    ///   - algorithm: The JWS algorithm of its keys and signers.
    ///   - make: Makes a new key.
    ///   - signer: The signer of a key of this kind (one `make` made here or in another process);
    ///     throws for a key it cannot use (a private part of another kind, say).
    public init(algorithm: String, make: @escaping @Sendable () throws -> DPoPKey,
                signer: @escaping @Sendable (DPoPKey) throws -> any DPoPSigner) {
        self.algorithm = algorithm
        self.make = make
        self.makeSigner = signer
    }

    /// The signer of `key`.
    /// - Throws: whatever the kind throws for a key it cannot use.
    public func signer(for key: DPoPKey) throws -> any DPoPSigner {
        try makeSigner(key)
    }

    /// The SDK's own kinds on this platform: ``eddsa`` with the `EncryptedTokenStore` trait,
    /// `es256` and `secureEnclaveES256` where CryptoKit is.
    static var builtIn: [DPoPKeyKind] {
        var kinds: [DPoPKeyKind] = []
        #if EncryptedTokenStore
        kinds.append(.eddsa)
        #endif
        #if canImport(CryptoKit)
        kinds.append(.es256)
        #endif
        #if canImport(CryptoKit) && !os(Linux)
        kinds.append(.secureEnclaveES256)
        #endif
        return kinds
    }

    /// 32 bytes from the system's secure random source.
    static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
