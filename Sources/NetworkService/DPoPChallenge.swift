/// Reads a `WWW-Authenticate` challenge with the `DPoP` scheme (RFC 9449 §7.1), for example
/// `DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"`
/// or `Bearer, DPoP algs="ES256 EdDSA"`, with ``BearerChallenge``'s parser; and tells a nonce
/// challenge (RFC 9449 §8, §9) from other refusals.
package enum DPoPChallenge {
    /// The parameters of the first `DPoP` challenge in `header`, names lowercased; `nil` when
    /// there is no DPoP challenge.
    static func parameters(of header: String) -> [String: String]? {
        AuthenticateChallenge.parameters(of: header, scheme: "dpop")
    }

    /// Whether `header` holds a `DPoP` challenge (alone or in a list such as
    /// `Bearer realm="x", DPoP algs="ES256"`).
    static func hasDPoPChallenge(_ header: String) -> Bool {
        AuthenticateChallenge.hasChallenge(in: header, scheme: "dpop")
    }

    /// The nonce to prove with next when `response` asks for one, `nil` otherwise.
    ///
    /// A nonce challenge is a 400 (the token endpoint, RFC 9449 §8) or a 401 (a resource, §9)
    /// that says `use_dpop_nonce`, as the body's error code (`errorCode`, read by the server's
    /// ``ServerErrorFormat``) or in a `WWW-Authenticate: DPoP error="use_dpop_nonce"` challenge,
    /// and carries a `DPoP-Nonce` header with a usable nonce (``DPoPNonces/isUsable(_:)``).
    /// Without a new nonce there is nothing to retry with, so it is not one.
    package static func nonce(challengedBy response: HTTPResponse, errorCode: ServerErrorCode?) -> String? {
        guard response.statusCode == 400 || response.statusCode == 401,
              let nonce = response.value(forHeaderField: DPoPNonces.headerName), DPoPNonces.isUsable(nonce) else { return nil }
        if errorCode == .useDPoPNonce { return nonce }
        guard let challenge = response.value(forHeaderField: "WWW-Authenticate"),
              parameters(of: challenge)?["error"] == ServerErrorCode.useDPoPNonce.rawValue else { return nil }
        return nonce
    }
}
