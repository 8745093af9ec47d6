import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// DPoP keys and credentials for the store tests: one of each kind of private part.
enum DPoPTestKeys {
    /// RFC 8037 A.1's Ed25519 seed (the JWK's `d`) and public key (`x`).
    static let rfc8037D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
    static let rfc8037X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
    /// RFC 9449's P-256 public key (the RFC publishes no `d`).
    static let rfc9449X = "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"
    static let rfc9449Y = "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"

    static func bytes(_ base64url: String) -> [UInt8] {
        Base64URL.decode(base64url) ?? []
    }

    #if EncryptedTokenStore
    /// A software EdDSA key from `seed` (a random one by default), its public key derived with libsodium.
    static func eddsa(seed: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }) -> DPoPKey {
        let x = Ed25519.PrivateKey(seed: seed)?.publicKey ?? []
        return DPoPKey(algorithm: "EdDSA", coordinates: .okp(crv: "Ed25519", x: x),
                       material: .privateKey(DPoPPrivateKeyBytes(copying: seed)!))
    }
    #endif

    /// An ES256 Secure Enclave key: RFC 9449's public key and an opaque blob.
    static func secureEnclave() -> DPoPKey {
        DPoPKey(algorithm: "ES256", coordinates: .ec(crv: "P-256", x: bytes(rfc9449X), y: bytes(rfc9449Y)),
                material: .secureEnclave((0..<160).map { UInt8($0 * 37 & 0xFF) }))
    }

    /// An ES256 key an app keeps itself, by reference.
    static func external() -> DPoPKey {
        DPoPKey(algorithm: "ES256", coordinates: .ec(crv: "P-256", x: bytes(rfc9449X), y: bytes(rfc9449Y)),
                material: .external("com.example.app/dpop-key-1"))
    }

    /// Every kind of key this build can make.
    static func all() -> [DPoPKey] {
        var keys = [secureEnclave(), external()]
        #if EncryptedTokenStore
        keys.insert(eddsa(), at: 0)
        #endif
        return keys
    }

    /// Credentials bound to `key`, with unique tokens.
    static func credentials(_ key: DPoPKey?, type: String? = "DPoP") -> Credentials {
        var credentials = TokenStoreTesting.credentials("dpop")
        credentials.dpopKey = key
        credentials.accessTokenType = type
        return credentials
    }

    /// The base64url `d` of a software key, to search output for.
    static func d(of key: DPoPKey) -> String? {
        guard case let .privateKey(bytes) = key.material else { return nil }
        return bytes.withUnsafeBytes { Base64URL.encode(Array($0)) }
    }

    #if EncryptedTokenStore
    /// Whether a signature made with `loaded`'s private key verifies under `saved`'s public key.
    static func signatureVerifies(signedWith loaded: DPoPKey, under saved: DPoPKey) throws -> Bool {
        guard case let .privateKey(bytes) = loaded.material, case let .okp(_, x) = saved.coordinates else { return false }
        let signer = try EdDSASigner(seed: bytes.withUnsafeBytes { Array($0) })
        let message = Array("eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJqdGkiOiJ4In0".utf8)
        return Ed25519.isValidSignature(try signer.sign(message), of: message, publicKey: x)
    }
    #endif
}
