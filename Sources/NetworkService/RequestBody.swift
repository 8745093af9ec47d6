/// The body of a request.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// A JSON body, encoded with the shared configuration of ``JSONCoding``.
    case json(any Encodable & Sendable)
    /// An `application/x-www-form-urlencoded` body (RFC 6749 Appendix B, as OAuth 2.0 token
    /// and revocation endpoints expect): the fields in order, names and values UTF-8 and
    /// percent-encoded, a space as `+`.
    ///
    /// ```swift
    /// .form([("grant_type", "refresh_token"), ("refresh_token", token)])
    /// // grant_type=refresh_token&refresh_token=…
    /// ```
    case form([(name: String, value: String)])

    /// The encoded form of `fields`, for example `grant_type=password&username=kim%40example.com`.
    public static func formEncoded(_ fields: [(name: String, value: String)]) -> String {
        fields.map { PercentEncoding.formEncode($0.name) + "=" + PercentEncoding.formEncode($0.value) }
            .joined(separator: "&")
    }
}
