/// Why a DPoP proof (RFC 9449 §4.3) was not accepted. Each case names the check that failed,
/// never the proof, the key or the nonce: a refusal is logged and answered as it is.
enum DPoPRefusal: Error, Equatable, Sendable {
    /// No `DPoP` header field where one is required.
    case missingProof
    /// More than one `DPoP` header field (§4.3 check 1).
    case severalProofs
    /// Not a compact JWS of three base64url parts whose header and claims are JSON objects;
    /// the associated value names the part or claim.
    case malformed(String)
    /// The header's `typ` is not `dpop+jwt` (check 4).
    case wrongType
    /// The `alg` is not on the server's list, or does not fit the key (checks 5 and 6).
    case algorithmNotAllowed
    /// The `jwk` is not a public key the server can use, or carries private parts (check 7).
    case unusableKey
    /// The signature does not verify with the `jwk` (check 8).
    case badSignature
    /// `htm` is not the request's method (check 9).
    case methodMismatch
    /// `htu` is not the request's URI without query and fragment (check 10).
    case targetMismatch
    /// `iat` is outside the accepted window (check 12); also a proof older than a nonce allows.
    case issuedAtOutsideWindow
    /// `jti` is missing, empty or longer than the server keeps (check 11).
    case badIdentifier
    /// This `jti` was seen for this URI within the window (§11.1): a replayed proof.
    case replayed
    /// The replay cache is full: the client should retry with a fresh nonce.
    case replayCacheFull
    /// The proof has no `nonce`, or one the server no longer accepts (check 11, §8, §9).
    /// Answered with `use_dpop_nonce` and a fresh `DPoP-Nonce`.
    case nonceRequired
    /// `ath` is missing or is not the SHA-256 of the access token presented (check 11).
    case accessTokenHashMismatch
    /// The proof's key is not the one the token is bound to (§6, §7.1).
    case keyMismatch

    /// The OAuth error code for the answer: `use_dpop_nonce` for a nonce to retry with,
    /// `invalid_dpop_proof` for everything else (§7.1, §8, §9).
    var errorCode: String {
        switch self {
        case .nonceRequired, .replayCacheFull: "use_dpop_nonce"
        default: "invalid_dpop_proof"
        }
    }
}

extension DPoPRefusal {
    /// A sentence for the error body: which check failed, never a value from the proof.
    var explanation: String {
        switch self {
        case .missingProof: "This request needs a DPoP proof (a DPoP header)."
        case .severalProofs: "A request may carry only one DPoP header."
        case .malformed(let part): "The DPoP proof is malformed (\(part))."
        case .wrongType: "The DPoP proof's typ must be dpop+jwt."
        case .algorithmNotAllowed: "The DPoP proof's algorithm is not accepted here."
        case .unusableKey: "The DPoP proof's jwk is not a public key this server accepts."
        case .badSignature: "The DPoP proof's signature does not verify."
        case .methodMismatch: "The DPoP proof's htm is not this request's method."
        case .targetMismatch: "The DPoP proof's htu is not this request's URI."
        case .issuedAtOutsideWindow: "The DPoP proof's iat is too old or too far in the future."
        case .badIdentifier: "The DPoP proof's jti is missing or unusable."
        case .replayed: "This DPoP proof was already used."
        case .replayCacheFull: "The server cannot take more DPoP proofs now; retry with the nonce given."
        case .nonceRequired: "The DPoP proof must carry the nonce given in DPoP-Nonce."
        case .accessTokenHashMismatch: "The DPoP proof's ath is not the hash of this access token."
        case .keyMismatch: "The DPoP proof is not signed by the key this session is bound to."
        }
    }
}
