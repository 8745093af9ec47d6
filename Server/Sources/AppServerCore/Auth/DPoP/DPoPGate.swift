import Crypto
import Foundation
import Hummingbird

/// The server's DPoP rules while DPoP is on (``DPoPSettings/Mode/allowed`` or `.required`):
/// checks the proofs of token routes and resources, turns refusals into the API's errors and
/// challenges, and hands out nonces. `nil` in ``AppServices`` when DPoP is off.
///
/// Proofs are checked before any transaction, so a refused proof or a nonce challenge never
/// consumes a refresh token (docs/DPOP-PLAN.md §5).
struct DPoPGate: Sendable {
    /// How a request presented its access token.
    enum Scheme: Sendable {
        case bearer
        case dpop
    }

    /// Allowed or required (never off).
    let mode: DPoPSettings.Mode
    private let verifier: DPoPProofVerifier
    /// The nonce issuer, also when nonces are not required (test mode can rotate it either way).
    let nonceIssuer: DPoPNonceIssuer
    private let requiresNonce: Bool
    private let clock: TimeSource
    private let testMode: TestModeState?
    /// The `algs` parameter of challenges: `"ES256 EdDSA"`.
    let algorithmList: String

    /// The gate for `settings`; `nil` when DPoP is off.
    /// - Parameter jwtSecret: the server's signing secret, from which the nonce key is derived,
    ///   so instances sharing a secret accept each other's nonces.
    init?(settings: DPoPSettings, jwtSecret: String, clock: TimeSource, testMode: TestModeState?) {
        guard settings.mode != .off else { return nil }
        mode = settings.mode
        let algorithms = settings.algorithms.compactMap(DPoPPublicKey.Algorithm.init(rawValue:))
        nonceIssuer = DPoPNonceIssuer(secret: Self.nonceSecret(jwtSecret: jwtSecret), lifetime: settings.nonceLifetime.timeInterval)
        requiresNonce = settings.requiresNonce
        let policy = DPoPProofVerifier.Policy(
            algorithms: algorithms, maximumAge: settings.maximumProofAge.timeInterval,
            maximumSkew: settings.maximumClockSkew.timeInterval, requiresNonce: settings.requiresNonce
        )
        verifier = DPoPProofVerifier(policy: policy, nonces: nonceIssuer, replays: DPoPReplayCache())
        self.clock = clock
        self.testMode = testMode
        algorithmList = algorithms.map(\.rawValue).joined(separator: " ")
    }

    /// The nonce key: HKDF-SHA256 of the JWT secret with a label of its own, so the nonce MAC
    /// never shares a key with the access tokens' HMAC and reveals nothing about it.
    static func nonceSecret(jwtSecret: String) -> Data {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(jwtSecret.utf8)), info: Data("app-server DPoP nonce v1".utf8), outputByteCount: 32
        )
        return key.withUnsafeBytes { Data($0) }
    }

    /// The `DPoP-Nonce` value for responses now; `nil` when nonces are off.
    var currentNonce: String? {
        requiresNonce ? nonceIssuer.current(at: clock.now()) : nil
    }

    /// Checks the proof of a request to a token route (sign-up, sign-in, anonymous sign-in,
    /// refresh) before anything else is done.
    /// - Returns: the verified proof; `nil` when the request has none and DPoP is only allowed.
    /// - Throws: 400 `invalid_dpop_proof` or `use_dpop_nonce` (RFC 9449 §5, §8).
    func tokenRequestProof(_ request: Request) throws(APIError) -> VerifiedDPoPProof? {
        let fields = request.headers[values: .dpop]
        if fields.isEmpty, mode == .allowed { return nil }
        do throws(DPoPRefusal) {
            return try verify(fields, request: request, accessToken: nil)
        } catch {
            let code: APIError.Code = error.errorCode == APIError.Code.useDPoPNonce.rawValue ? .useDPoPNonce : .invalidDPoPProof
            throw APIError(status: .badRequest, code: code, message: error.explanation)
        }
    }

    /// Checks the proof of a resource request presenting `accessToken` with the DPoP scheme.
    func resourceProof(_ request: Request, accessToken: String) throws(DPoPRefusal) -> VerifiedDPoPProof {
        try verify(request.headers[values: .dpop], request: request, accessToken: accessToken)
    }

    /// 401 for a resource request, with the challenges of the mode (RFC 9449 §7.1, RFC 6750 §3):
    /// under `required`, `DPoP error=…, algs=…`; under `allowed`, the error in the challenge of
    /// the scheme presented and the other scheme offered beside it.
    /// - Parameters:
    ///   - challengeError: the challenge's `error` (`invalid_token`, `invalid_dpop_proof`,
    ///     `use_dpop_nonce`); `nil` for a request without credentials (RFC 6750 §3.1).
    ///   - presented: the scheme the request used, if any.
    func unauthorized(_ code: APIError.Code, message: String, challengeError: String?, presented: Scheme?) -> APIError {
        let parameters = challengeError.map { #"error="\#($0)", error_description="\#(message)""# }
        let dpop = "DPoP " + [parameters, #"algs="\#(algorithmList)""#].compactMap { $0 }.joined(separator: ", ")
        let challenge: String
        switch (mode, presented) {
        case (.allowed, .dpop?): challenge = "Bearer, " + dpop
        case (.allowed, _): challenge = (parameters.map { "Bearer " + $0 } ?? "Bearer") + #", DPoP algs="\#(algorithmList)""#
        default: challenge = dpop
        }
        return APIError(status: .unauthorized, code: code, message: message, wwwAuthenticate: challenge)
    }

    /// The 401 for a refused resource proof.
    func unauthorized(_ refusal: DPoPRefusal) -> APIError {
        let code: APIError.Code = refusal.errorCode == APIError.Code.useDPoPNonce.rawValue ? .useDPoPNonce : .invalidDPoPProof
        return unauthorized(code, message: refusal.explanation, challengeError: code.rawValue, presented: .dpop)
    }

    private func verify(_ fields: [String], request: Request, accessToken: String?) throws(DPoPRefusal) -> VerifiedDPoPProof {
        do throws(DPoPRefusal) {
            guard let target = DPoPRequestTarget.uri(of: request) else {
                // Judged like a wrong htu, but only once the proof is there at all.
                if fields.isEmpty { throw DPoPRefusal.missingProof }
                throw DPoPRefusal.targetMismatch
            }
            return try verifier.verify(
                fieldValues: fields, method: request.method.rawValue, target: target, accessToken: accessToken, now: clock.now()
            )
        } catch {
            if error.errorCode == APIError.Code.useDPoPNonce.rawValue { testMode?.recordDPoPNonceChallenge() }
            throw error
        }
    }
}
