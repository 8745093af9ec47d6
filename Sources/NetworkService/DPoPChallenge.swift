/// Reads a `WWW-Authenticate` challenge with the `DPoP` scheme (RFC 9449 §7.1), for example
/// `DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"`
/// or `Bearer, DPoP algs="ES256 EdDSA"`, with ``BearerChallenge``'s parser.
enum DPoPChallenge {
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
}
