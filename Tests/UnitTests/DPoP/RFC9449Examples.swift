import Foundation
@testable import NetworkService

/// The examples of RFC 9449 (DPoP), RFC 7638 (JWK thumbprints) and RFC 8037 (Ed25519 in JOSE)
/// that the DPoP tests reproduce.
enum RFC9449Examples {
    /// The RFC 9449 key (§4.2, Figure 4); the RFC publishes no private part.
    static let key = DPoPPublicKey.ec(crv: "P-256", x: bytes("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"),
                                      y: bytes("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))
    /// Its thumbprint (§6.1, `cnf.jkt`).
    static let thumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

    /// The encoded header of every proof the RFC's key signs.
    static let header = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19"

    /// Figure 2 (and 5): the token request's proof.
    static let tokenRequestProof = header + ".eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    /// Figure 7: the refresh request's proof (the same `jti`, a later `iat`).
    static let refreshRequestProof = header + ".eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjY1Mjk2fQ.pAqut2IRDm_De6PR93SYmGBPXpwrAk90e8cP2hjiaG5QsGSuKDYW7_X620BxqhvYC8ynrrvZLTk41mSRroapUA"
    /// Figure 14: the protected resource request's proof, with `ath`.
    static let resourceRequestProof = header + ".eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"

    /// Figure 13's access token and its `ath`.
    static let accessToken = AccessToken("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
    static let ath = "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"

    /// Figure 20's nonce, which Figure 21's proof carries.
    static let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"
    /// Figure 21's payload.
    static let figure21Payload = #"{"jti":"-BwC3ESc6acc2lTc","htm":"POST","htu":"https://server.example.com/token","iat":1562262616,"nonce":"eyJ7S_zG.eyJH0-Z.HX4w-7v"}"#

    /// RFC 7638 §3.1's RSA key and its thumbprint (also RFC 9449 Figure 25's `dpop_jkt`).
    static let rsaKey = DPoPPublicKey.rsa(
        n: bytes("0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"),
        e: bytes("AQAB"))
    static let rsaThumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    /// RFC 8037 Appendix A.1–A.3: the Ed25519 key (`d` is the 32-byte seed) and its thumbprint.
    static let ed25519Seed = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
    static let ed25519PublicKey = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
    static let ed25519Thumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    /// RFC 8037 Appendix A.4: a signing input and its (deterministic) signature.
    static let ed25519SigningInput = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc"
    static let ed25519Signature = "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"

    /// The bytes of base64url text the tests spell correctly.
    static func bytes(_ base64URL: String) -> [UInt8] {
        Base64URL.decode(base64URL)!
    }

    /// The signature segment of a compact proof.
    static func signature(of proof: String) -> [UInt8] {
        bytes(String(proof.split(separator: ".")[2]))
    }

    /// The payload of a compact proof, as JSON text.
    static func payload(of proof: String) -> String {
        String(decoding: bytes(String(proof.split(separator: ".")[1])), as: UTF8.self)
    }
}

/// Signs as the RFC's key did: answers with the signature the RFC printed, and records what it
/// was asked to sign.
struct RecordedSigner: DPoPSigner {
    let algorithm = "ES256"
    let publicKey = RFC9449Examples.key
    let signature: [UInt8]

    init(signatureOf proof: String) {
        signature = RFC9449Examples.signature(of: proof)
    }

    func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] { signature }
}

/// A signer whose key is gone.
struct FailingSigner: DPoPSigner {
    struct KeyGone: Error {}
    let algorithm = "ES256"
    let publicKey = RFC9449Examples.key

    func sign(_ input: [UInt8]) throws(DPoPSigningError) -> [UInt8] {
        throw DPoPSigningError("the key is not available", underlying: KeyGone())
    }
}
