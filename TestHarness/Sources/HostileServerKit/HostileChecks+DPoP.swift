import Foundation
import AppSDKTesting
import NetworkService
import SessionEngine
import TokenStore

/// The checks of a DPoP-bound session (RFC 9449): the secrets it adds (proofs, nonces, the
/// private key, the DPoP token), the key it keeps, and ``HostileInvariant/provesPossessionRightly``.
extension HostileChecks {
    /// The DPoP secrets of a run: every proof a provider or the other origin received (whole,
    /// and its signature), the token of each `Authorization: DPoP`, every nonce a proof carried
    /// or a reply gave, and the private key of each key the run made (base64url, base64, hex).
    static func dpopSecrets(_ outcome: HostileOutcome) -> [String] {
        var secrets = Set<String>()
        for request in outcome.exchanges.map(\.request) + outcome.trapRequests {
            if let text = request.header("DPoP") {
                secrets.insert(text)
                if let proof = HostileProof(text) {
                    secrets.insert(proof.signature)
                    if let nonce = proof.nonce { secrets.insert(nonce) }
                }
            }
            if let authorization = request.header("Authorization"), authorization.hasPrefix("DPoP ") {
                secrets.insert(String(authorization.dropFirst(5)))
            }
        }
        for exchange in outcome.exchanges { secrets.formUnion(HostileReplyFacts(exchange.reply).nonces) }
        for key in outcome.keysMade {
            key.withPrivateKey { bytes in
                secrets.insert(HostileProof.base64URL(bytes))
                secrets.insert(Data(bytes).base64EncodedString())
                secrets.insert(bytes.map { String(format: "%02x", $0) }.joined())
            }
        }
        return secrets.filter { $0.count >= 4 }.sorted()
    }

    /// What breaks ``HostileInvariant/provesPossessionRightly``.
    func provingFindings() -> [String] {
        keyFindings() + proofFindings() + retryFindings() + elsewhereFindings()
    }

    /// One key made, kept through the run, and stored with the session.
    private func keyFindings() -> [String] {
        var found: [String] = []
        let made = outcome.keysMade
        if made.count > 1 { found.append("the run made \(made.count) DPoP keys; a session has one") }
        if let before = outcome.storedBefore?.dpopKey, let after = outcome.storedAfter?.dpopKey, before != after {
            found.append("the session's DPoP key changed from \(before) to \(after)")
        }
        if let after = outcome.storedAfter {
            if after.dpopKey == nil, !made.isEmpty { found.append("the session was stored without its DPoP key") }
            if let key = after.dpopKey, let first = made.first, key != first {
                found.append("the stored DPoP key \(key) is not the one the sign-in made (\(first))")
            }
        }
        return found
    }

    /// Each proof names its request, carries the `ath` of the token it goes with, is signed by
    /// the one key, and holds no nonce a header could not carry.
    private func proofFindings() -> [String] {
        var found: [String] = []
        var headers = Set<String>()
        var aths: [String: String?] = [:]
        for exchange in outcome.exchanges {
            let request = exchange.request
            let where_ = "\(request.method) \(exchange.route)"
            let authorization = request.header("Authorization")
            guard let text = request.header("DPoP") else {
                if authorization?.hasPrefix("DPoP ") == true { found.append("\(where_) carried a DPoP token without a proof") }
                continue
            }
            guard let proof = HostileProof(text) else { found.append("\(where_) carried a proof that is not a JWS"); continue }
            headers.insert(proof.headerSegment)
            if proof.header["typ"] as? String != "dpop+jwt" { found.append("\(where_): the proof's typ is not dpop+jwt") }
            if proof.htm != request.method { found.append("\(where_): the proof's htm is \(proof.htm ?? "missing")") }
            let path = String(request.target.split(separator: "?", maxSplits: 1).first ?? "")
            let expected = "http://" + (request.header("Host") ?? "") + path
            if proof.htu != expected { found.append("\(where_): the proof's htu is \(proof.htu ?? "missing"), not \(expected)") }
            if let nonce = proof.nonce, !Self.isUsableNonce(nonce) {
                found.append("\(where_): the proof carries a nonce a header cannot carry (\(nonce.utf8.count) bytes)")
            }
            if let authorization, authorization.hasPrefix("DPoP ") {
                let token = String(authorization.dropFirst(5))
                let expectedATH = aths[token] ?? Self.ath(of: token, key: outcome.keysMade.first)
                aths[token] = expectedATH
                if let expectedATH, proof.ath != expectedATH { found.append("\(where_): the proof's ath is not its token's hash") }
            } else if proof.ath != nil {
                found.append("\(where_): the proof has an ath but the request carries no DPoP token")
            }
        }
        if headers.count > 1 { found.append("the proofs were signed with \(headers.count) keys") }
        return found
    }

    /// No request sent a third time for nonce challenges: on each route, a request answered by
    /// a challenge may be sent once more with its nonce, not twice. A refresh's token requests
    /// are counted by the engine's attempts instead (each may be sent twice), since the engine
    /// may try a refresh that met a challenge again (rule 8) with the same bytes.
    private func retryFindings() -> [String] {
        var found: [String] = []
        let attempts = outcome.refreshAttempts
        var depth: [HostileProvider.Route: (exchange: HostileProvider.Exchange, depth: Int)] = [:]
        for exchange in outcome.exchanges {
            if exchange.route == .token, attempts > 0 { continue }
            var current = 0
            if let previous = depth[exchange.route], let nonce = HostileReplyFacts(previous.exchange.reply).challengeNonce,
               HostileProof(of: exchange.request)?.nonce == nonce, previous.exchange.request.method == exchange.request.method,
               previous.exchange.request.target == exchange.request.target, previous.exchange.request.body == exchange.request.body {
                current = previous.depth + 1
                if current == 2 { found.append("\(exchange.request.method) \(exchange.route) was sent again after a second nonce challenge") }
            }
            depth[exchange.route] = (exchange, current)
        }
        if attempts > 0 {
            let tokenRequests = outcome.exchanges.filter { $0.route == .token }.count
            if tokenRequests > 2 * attempts {
                found.append("\(tokenRequests) token requests for \(attempts) refresh attempt(s): more than one nonce retry each")
            }
        }
        return found
    }

    /// No proof, nor DPoP token, reached the other origin.
    private func elsewhereFindings() -> [String] {
        outcome.trapRequests.filter { $0.header("DPoP") != nil || $0.header("Authorization")?.hasPrefix("DPoP ") == true }
            .map { "the other origin received a DPoP proof or token in \($0.method) \($0.target)" }
    }

    /// Whether `nonce` is 1 to 2,048 NQCHAR bytes (RFC 9449 §8.1).
    static func isUsableNonce(_ nonce: String) -> Bool {
        !nonce.isEmpty && nonce.utf8.count <= 2_048 && nonce.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
    }

    /// The `ath` of `token`, as the SDK's public API computes it for `key` (a proving server's
    /// header fields for a request carrying it); `nil` without a key.
    static func ath(of token: String, key: DPoPKey?) -> String? {
        guard let key, let signer = try? DPoPKeyKind.eddsa.signer(for: key),
              let server = try? Server(baseURL: "https://ath.invalid").proving(signer),
              let url = URL(string: "https://ath.invalid/"),
              let fields = try? server.authorizationFields(method: .get, url: url, accessToken: AccessToken(token, scheme: .dpop)),
              let proof = fields["DPoP"].flatMap(HostileProof.init) else { return nil }
        return proof.ath
    }
}
