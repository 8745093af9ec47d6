public import Foundation

/// Makes DPoP proofs as a request to one URL does, for the repository's in-process benchmarks
/// (`Benchmarks/`, a package of its own that cannot reach the SDK's `package` declarations).
///
/// Not API: it is behind the `Benchmarks` SPI (`@_spi(Benchmarks) import NetworkService`), may
/// change or go in any release, and documentation leaves it out. Like the proofs a `Server`
/// makes, the header and the access token's `ath` are computed once; each ``proof(method:issuedAt:)``
/// encodes a payload with a new `jti` and signs it.
@_spi(Benchmarks)
public struct DPoPProofBenchmark: Sendable {
    private let signer: any DPoPSigner
    private let header: String
    private let target: DPoPTarget
    private let ath: String?
    private let nonce: String?

    /// Proofs of `signer` for requests to `url`, carrying `accessToken` (its `ath`) and `nonce`
    /// when given; `nil` when `url` is not an http or https URL with a host.
    public init?(signer: any DPoPSigner, url: URL, accessToken: AccessToken? = nil, nonce: String? = nil) {
        guard let target = DPoPTarget(url) else { return nil }
        self.signer = signer
        self.target = target
        header = DPoPProof.header(for: signer)
        ath = accessToken.map(DPoPProof.ath(of:))
        self.nonce = nonce
    }

    /// A new proof, in JWS compact serialization, for a request of `method` made at `issuedAt`.
    /// - Throws: the signer's ``DPoPSigningError``.
    public func proof(method: HTTPMethod, issuedAt: Date) throws(DPoPSigningError) -> String {
        try DPoPProof(method: method, target: target, issuedAt: issuedAt, ath: ath, nonce: nonce)
            .compact(header: header, signedBy: signer)
    }
}
