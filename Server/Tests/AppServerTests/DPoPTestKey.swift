import AppServerCore
import Crypto
import Foundation
import Hummingbird

/// A client's DPoP key in the server's tests: signs proofs (ES256) for requests to the
/// in-process server, whose test clients send `Host: localhost` over plain HTTP.
struct DPoPTestKey: Sendable {
    let key: P256.Signing.PrivateKey
    /// The key's RFC 7638 thumbprint, what tokens bound to it carry as `cnf.jkt`.
    let thumbprint: String

    init(_ key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.key = key
        let raw = key.publicKey.rawRepresentation
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(raw.prefix(32)))","y":"\#(Base64URL.encode(raw.suffix(32)))"}"#
        thumbprint = Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }

    /// The `htu` the server expects for `path`.
    static func target(_ path: String) -> String { "http://localhost" + path }

    /// A proof for `method` on `path` (its query is left out of `htu`), at `now`; with `ath`
    /// when `accessToken` is given, `nonce` when given. `claims` are laid over the usual ones
    /// (`nil` removes one).
    func proof(_ method: HTTPRequest.Method, _ path: String, accessToken: String? = nil, nonce: String? = nil,
               at now: Date = Date(), claims: [String: Any?] = [:]) -> String {
        let raw = key.publicKey.rawRepresentation
        let header: [String: Any] = ["typ": "dpop+jwt", "alg": "ES256",
                                     "jwk": ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)),
                                             "y": Base64URL.encode(raw.suffix(32))]]
        let htu = Self.target(String(path.prefix { $0 != "?" }))
        var payload: [String: Any] = ["jti": UUID().uuidString, "htm": method.rawValue, "htu": htu, "iat": Int(now.timeIntervalSince1970)]
        if let accessToken { payload["ath"] = Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8))) }
        if let nonce { payload["nonce"] = nonce }
        for (name, value) in claims { payload[name] = value }
        let input = Self.encode(header) + "." + Self.encode(payload)
        // Signing with a valid P-256 key over a byte string cannot fail.
        let signature = (try? key.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + Base64URL.encode(signature)
    }

    private static func encode(_ object: [String: Any]) -> String {
        Base64URL.encode((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}

extension HTTPFields.Element.Name {
    /// `DPoP` (named apart from the server's own internal names, which `@testable` files see).
    static let dpopProof = HTTPFields.Element.Name("DPoP")!
    /// `DPoP-Nonce`.
    static let dpopNonceField = HTTPFields.Element.Name("DPoP-Nonce")!
}
