import Foundation
@_spi(Benchmarks) public import NetworkService
import DPoPSwiftCrypto
@_spi(Benchmarks) import SessionEngine

/// The DPoP proofs of the benchmarks (issue #36): a proof of `GET /v1/posts/42` carrying the
/// access token's `ath` and a server nonce, as `Server.send` makes one per call to a server that
/// requires nonces (the header and `ath` computed once, as a proving `Server` keeps them).
/// Behind the `Benchmarks` SPI, as the SDK's proof maker it returns.
@_spi(Benchmarks)
public enum Proofs {
    /// RFC 8037 A.1's Ed25519 seed (`d`): a fixed key, so every run signs with the same one.
    public static let ed25519Seed: [UInt8] = [
        0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec, 0x2c, 0xc4,
        0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03, 0x1c, 0xae, 0x7f, 0x60,
    ]
    /// RFC 9449 Figure 20's nonce.
    public static let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"

    /// Proofs signed by `signer` for the benchmarks' endpoint.
    public static func maker(signer: any DPoPSigner) -> DPoPProofBenchmark {
        guard let url = URL(string: Fixtures.baseURL + "/v1/posts/42"),
              let maker = DPoPProofBenchmark(signer: signer, url: url, accessToken: AccessToken(Fixtures.accessToken), nonce: nonce)
        else { fatalError("the benchmarks' URL is an https URL") }
        return maker
    }

    /// RFC 7515 A.3's P-256 private key (`d`): a fixed key, so every run signs with the same one.
    public static let p256D: [UInt8] = [
        0x8e, 0x9b, 0x10, 0x9e, 0x71, 0x90, 0x98, 0xbf, 0x98, 0x04, 0x87, 0xdf, 0x1f, 0x5d, 0x77, 0xe9,
        0xcb, 0x29, 0x60, 0x6e, 0xbe, 0xd2, 0x26, 0x3b, 0x5f, 0x57, 0xc2, 0x13, 0xdf, 0x84, 0xf4, 0xb2,
    ]

    /// Proofs signed with ES256 by the swift-crypto signer (`Integrations/DPoPSwiftCrypto`).
    public static func es256() throws -> DPoPProofBenchmark {
        maker(signer: try ES256Signer(rawRepresentation: p256D))
    }

    /// Proofs signed with EdDSA by the SDK's libsodium signer.
    public static func eddsa() throws -> DPoPProofBenchmark {
        maker(signer: try EdDSASignerBenchmark.signer(seed: ed25519Seed))
    }
}
