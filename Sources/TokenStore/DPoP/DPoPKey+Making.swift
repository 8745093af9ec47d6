public import NetworkService

// Making a key outside the SDK: a key kind of an app's own or of an integration package
// (`DPoPKeyKind`, SessionEngine) makes its keys and reads their private part back here.
extension DPoPKey {
    /// A software key: `privateKey` is the JWK's `d` (ES256's 32-byte private scalar, or an
    /// Ed25519 seed), kept in memory that is wiped when freed; the caller wipes its own copy.
    ///
    /// Where this build can derive the public key from `d` (EdDSA with libsodium, ES256 with
    /// CryptoKit), it must be `publicKey`.
    ///
    /// ```swift
    /// let signer = ES256Signer.generate()      // DPoPSwiftCrypto
    /// let key = try DPoPKey(algorithm: "ES256", publicKey: signer.publicKey, privateKey: signer.rawRepresentation)
    /// ```
    /// - Throws: ``DPoPKeyError`` for an algorithm other than ES256 and EdDSA, a public key of
    ///   another type or curve, a `d` that is not 32 bytes or not the private part of `publicKey`.
    public init(algorithm: String, publicKey: DPoPPublicKey, privateKey: [UInt8]) throws(DPoPKeyError) {
        let coordinates = try Self.coordinates(of: publicKey, algorithm: algorithm)
        guard privateKey.count == 32 else { throw DPoPKeyError("the private key is \(privateKey.count) bytes, not 32") }
        if let derived = StoredDPoPKey.publicKey(of: privateKey, algorithm: algorithm), derived != coordinates {
            throw DPoPKeyError("the public key is not that of the private key")
        }
        guard let bytes = DPoPPrivateKeyBytes(copying: privateKey) else {
            throw DPoPKeyError("the private key could not be kept in memory")
        }
        self.init(algorithm: algorithm, coordinates: coordinates, material: .privateKey(bytes))
    }

    /// A key an app keeps itself (in a hardware token or a key service), known to the store by
    /// `reference` (at most 1,024 characters): the store keeps the reference, never the key.
    /// - Throws: ``DPoPKeyError`` for an algorithm other than ES256 and EdDSA, a public key of
    ///   another type or curve, or an empty or too long reference.
    public init(algorithm: String, publicKey: DPoPPublicKey, reference: String) throws(DPoPKeyError) {
        let coordinates = try Self.coordinates(of: publicKey, algorithm: algorithm)
        guard !reference.isEmpty, reference.count <= StoredDPoPKey.maximumReferenceLength else {
            throw DPoPKeyError("a key reference is 1 to \(StoredDPoPKey.maximumReferenceLength) characters")
        }
        self.init(algorithm: algorithm, coordinates: coordinates, material: .external(reference))
    }

    /// Lends a software key's private bytes (the JWK's `d`) to `body`, for a signer to be made
    /// from them; `nil` for a key whose private part is elsewhere (``reference``, a Secure
    /// Enclave blob). The bytes are a copy that is wiped when `body` returns: keep none of them.
    public func withPrivateKey<Result>(_ body: ([UInt8]) throws -> Result) rethrows -> Result? {
        guard case let .privateKey(bytes) = material else { return nil }
        var copy = bytes.withUnsafeBytes { Array($0) }
        defer { DPoPPrivateKeyBytes.wipe(&copy) }
        return try body(copy)
    }

    /// The app's reference of a key it keeps itself (``init(algorithm:publicKey:reference:)``), else `nil`.
    public var reference: String? {
        guard case let .external(reference) = material else { return nil }
        return reference
    }

    /// The public members of `publicKey`, which must suit `algorithm`.
    private static func coordinates(of publicKey: DPoPPublicKey, algorithm: String) throws(DPoPKeyError) -> DPoPKeyCoordinates {
        switch (algorithm, publicKey.parameters) {
        case let ("ES256", .ec("P-256", x, y)) where x.count == 32 && y.count == 32:
            return .ec(crv: "P-256", x: x, y: y)
        case let ("EdDSA", .okp("Ed25519", x)) where x.count == 32:
            return .okp(crv: "Ed25519", x: x)
        case ("ES256", _), ("EdDSA", _):
            throw DPoPKeyError("the public key is not a \(algorithm == "ES256" ? "P-256" : "Ed25519") key of 32-byte coordinates")
        default:
            throw DPoPKeyError("the algorithm \"\(Redaction.printable(String(algorithm.prefix(16))))\" is not ES256 or EdDSA")
        }
    }
}
