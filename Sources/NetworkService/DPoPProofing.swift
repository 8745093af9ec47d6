package import Foundation

/// Makes the DPoP proofs (RFC 9449) of one key: a ``DPoPSigner``, the nonces servers gave
/// (``DPoPNonces``, per origin) and the clock proofs are dated by (the server's clock, when
/// the engine knows its offset).
///
/// Built for many requests: the encoded header is constant per key and made once, here, and
/// the last access token's `ath` is kept, so a call costs one payload encoding and one
/// signature. A ``Server`` made with ``Server/proving(_:everyRequest:)`` holds one.
///
/// Its description and mirror show the algorithm and the key's thumbprint only: no nonce,
/// `ath` or signer internals.
package final class DPoPProofing: @unchecked Sendable, CustomStringConvertible, CustomReflectable {
    /// The key proofs are signed with.
    package let signer: any DPoPSigner
    /// The latest nonce of each server.
    package let nonces: DPoPNonces
    /// The encoded protected header of every proof: constant per key.
    let header: String
    /// The time a proof is made at, on the server's clock.
    private let now: @Sendable () -> Date
    /// A new `jti`: ``DPoPProof/makeJTI()`` but in tests.
    private let makeJTI: @Sendable () -> String

    // `@unchecked Sendable`: `lastATH` is the only mutable state, and every access holds `lock`;
    // the other properties are immutable and Sendable (the signer by its protocol).
    private let lock = NSLock()
    private var lastATH: (token: String, ath: String)?

    /// Proofs signed by `signer`, with the nonces of `nonces` (default: the process's), dated
    /// by `now` (default: this machine's clock; the engine passes the server's, its offset added).
    package convenience init(signer: any DPoPSigner, nonces: DPoPNonces = .shared,
                             now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(signer: signer, nonces: nonces, now: now, jti: DPoPProof.makeJTI)
    }

    /// Proofs whose `jti`s come from `jti`: for tests that reproduce the RFC's proofs.
    init(signer: any DPoPSigner, nonces: DPoPNonces, now: @escaping @Sendable () -> Date,
         jti: @escaping @Sendable () -> String) {
        self.signer = signer
        self.nonces = nonces
        self.now = now
        self.makeJTI = jti
        header = DPoPProof.header(for: signer)
    }

    /// The `ath` of `token` (``DPoPProof/ath(of:)``), kept for the next call with the same token.
    func ath(of token: AccessToken) -> String {
        if let kept = lock.withLock({ lastATH }), kept.token == token.rawValue { return kept.ath }
        let ath = DPoPProof.ath(of: token)
        lock.withLock { lastATH = (token.rawValue, ath) }
        return ath
    }

    /// A new proof (new `jti`) for a `method` request to `htu` (already normalised, as
    /// ``DPoPTarget`` writes it), carrying `accessToken`'s `ath` when given, and `nonce`, or else
    /// the latest nonce `origin` gave.
    /// - Throws: the signer's ``DPoPSigningError``.
    package func proof(method: HTTPMethod, htu: String, origin: String, accessToken: AccessToken?,
                       nonce: String? = nil) throws(DPoPSigningError) -> String {
        let proof = DPoPProof(jti: makeJTI(), method: method, target: DPoPTarget(normalizedHTU: htu), issuedAt: now(),
                              ath: accessToken.map(ath(of:)), nonce: nonce ?? nonces.nonce(forOrigin: origin))
        return try proof.compact(header: header, signedBy: signer)
    }

    /// For example `DPoPProofing(ES256, key 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I)`.
    package var description: String {
        "DPoPProofing(\(Redaction.printable(signer.algorithm)), key \(signer.publicKey.thumbprint))"
    }

    /// A mirror that shows the description only: no nonce, `ath` or signer.
    package var customMirror: Mirror { Mirror(self, children: ["proofing": description]) }
}
