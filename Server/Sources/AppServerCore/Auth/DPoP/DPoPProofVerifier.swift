import Crypto
import Foundation

/// A DPoP proof that passed every check: who signed it and what it was.
struct VerifiedDPoPProof: Sendable, Equatable {
    /// The JWK SHA-256 thumbprint of the proof's key (RFC 7638): what tokens are bound to.
    let thumbprint: String
    /// The proof's `jti`.
    let identifier: String
    /// The proof's `iat`.
    let issuedAt: Date
}

/// Checks DPoP proofs (RFC 9449 §4.3) for the reference server: the header field, `typ`, the
/// algorithm against an allow-list, the key, the signature, `htm` and `htu`, `iat` within a
/// window, the nonce, `ath` on resource requests, and `jti` against replays, in that order.
/// Pure but for the replay cache; the time is given, so tests need no clock.
struct DPoPProofVerifier: Sendable {
    /// What the server accepts.
    struct Policy: Sendable {
        /// The algorithms accepted (`algs` in challenges).
        var algorithms: [DPoPPublicKey.Algorithm] = DPoPPublicKey.Algorithm.allCases
        /// How far in the past a proof's `iat` may be, in seconds.
        var maximumAge: TimeInterval = 60
        /// How far in the future a proof's `iat` may be (clock skew), in seconds.
        var maximumSkew: TimeInterval = 5
        /// Whether proofs must carry a nonce this server made.
        var requiresNonce = false
        /// The longest `jti` kept.
        var maximumIdentifierLength = 64
    }

    /// The largest proof read, in bytes (a P-256 proof with a nonce and `ath` is about 700).
    static let maximumProofLength = 4_096

    let policy: Policy
    let nonces: DPoPNonceIssuer?
    let replays: DPoPReplayCache

    /// Checks the `DPoP` field values of a request.
    /// - Parameters:
    ///   - fieldValues: every `DPoP` header field of the request.
    ///   - method: the request's method (`htm`).
    ///   - target: the request's absolute URI; its query and fragment are ignored (`htu`).
    ///   - accessToken: the token the request presents, for `ath`; `nil` at the token endpoint.
    ///   - now: the time to judge `iat` and nonces by.
    func verify(fieldValues: [String], method: String, target: String, accessToken: String?,
                now: Date) throws(DPoPRefusal) -> VerifiedDPoPProof {
        guard let proof = fieldValues.first else { throw .missingProof }
        guard fieldValues.count == 1 else { throw .severalProofs }
        guard proof.utf8.count <= Self.maximumProofLength else { throw .malformed("size") }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("compact serialization") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = Self.object(headerBytes) else { throw .malformed("header") }
        guard let claimsBytes = Base64URL.decode(parts[1]), let claims = Self.object(claimsBytes) else { throw .malformed("claims") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("signature") }

        guard header["typ"] as? String == "dpop+jwt" else { throw .wrongType }
        guard let alg = header["alg"] as? String, let algorithm = DPoPPublicKey.Algorithm(rawValue: alg),
              policy.algorithms.contains(algorithm) else { throw .algorithmNotAllowed }
        guard let jwk = header["jwk"] as? [String: Any], let key = DPoPPublicKey(jwk: jwk, algorithm: algorithm) else {
            throw .unusableKey
        }
        let signingInput = Data(proof.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.verifies(signature, of: signingInput) else { throw .badSignature }

        guard claims["htm"] as? String == method else { throw .methodMismatch }
        guard let htu = claims["htu"] as? String, let presented = DPoPTargetURI.normalized(htu),
              let expected = DPoPTargetURI.normalized(target), presented == expected else { throw .targetMismatch }
        guard let iat = Self.seconds(claims["iat"]) else { throw .malformed("iat") }
        let issuedAt = Date(timeIntervalSince1970: iat)
        guard issuedAt >= now.addingTimeInterval(-policy.maximumAge),
              issuedAt <= now.addingTimeInterval(policy.maximumSkew) else { throw .issuedAtOutsideWindow }
        guard let jti = claims["jti"] as? String, !jti.isEmpty, jti.count <= policy.maximumIdentifierLength,
              jti.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E }) else { throw .badIdentifier }

        if let nonces, policy.requiresNonce {
            guard let nonce = claims["nonce"] as? String, nonces.accepts(nonce, at: now) else { throw .nonceRequired }
        }
        if let accessToken {
            let expectedHash = Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
            guard claims["ath"] as? String == expectedHash else { throw .accessTokenHashMismatch }
        }
        // Last, so that a proof refused for any other reason leaves no entry behind.
        try replays.record(jti: jti, target: presented, expiry: issuedAt.addingTimeInterval(policy.maximumAge), now: now)
        return VerifiedDPoPProof(thumbprint: key.thumbprint, identifier: jti, issuedAt: issuedAt)
    }

    /// A JSON object, or `nil`.
    private static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// A finite JSON number (not a Boolean, not a string), as seconds.
    private static func seconds(_ value: Any?) -> TimeInterval? {
        guard let number = value as? NSNumber, !(value is Bool), number.doubleValue.isFinite else { return nil }
        return number.doubleValue
    }
}
