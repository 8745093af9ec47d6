/// The body of a request.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// A JSON body, encoded with the shared configuration of ``JSONCoding``.
    case json(any Encodable & Sendable)
}
