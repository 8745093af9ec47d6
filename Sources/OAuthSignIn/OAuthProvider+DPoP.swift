import Foundation
import NetworkService

// DPoP (RFC 9449) in the sign-in flows: whether the server takes the key's algorithm, and the
// `dpop_jkt` that binds an authorization code (or a device code) to the key (§10).

extension OAuthProvider {
    /// Fails unless the server takes proofs signed with `proofing`'s algorithm: its
    /// `dpop_signing_alg_values_supported` must name it. A server whose metadata lacks the
    /// field does not offer DPoP (glewlwyd without DPoP refuses every proof with 403), so
    /// sending it one would fail anyway. Called before a sign-in sends anything.
    /// - Throws: ``SignInError/Kind/dpopAlgorithmUnsupported``, listing the server's algorithms.
    func checkDPoPSupport(of proofing: DPoPProofing) throws(SignInError) {
        let algorithm = proofing.signer.algorithm
        guard let supported = metadata.dpopSigningAlgValuesSupported else {
            throw SignInError.dpopAlgorithmUnsupported.with(detail: "Its metadata has no dpop_signing_alg_values_supported: "
                + "the server does not offer DPoP, so no \(algorithm) proof is sent to it.")
        }
        guard supported.contains(algorithm) else {
            let listed = supported.prefix(16).map { String($0.prefix(32)) }.joined(separator: ", ")
            throw SignInError.dpopAlgorithmUnsupported.with(detail: "Its dpop_signing_alg_values_supported is [\(listed)], "
                + "without \(algorithm).")
        }
    }

    /// The `dpop_jkt` field of an authorization (or device authorization) request proving
    /// `proofing`'s key: the key's RFC 7638 thumbprint; none without a key.
    static func dpopJKTField(_ proofing: DPoPProofing?) -> [(name: String, value: String)] {
        proofing.map { [(name: "dpop_jkt", value: $0.signer.publicKey.thumbprint)] } ?? []
    }
}
