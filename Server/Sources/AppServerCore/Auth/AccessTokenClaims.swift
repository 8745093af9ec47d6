public import JWTKit

/// The payload of an access token.
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// The member id.
    public var sub: String
    /// The session family id.
    public var sid: String
    /// The member's role when the token was issued (informative: routes read the current role).
    public var role: String
    /// Issued at, seconds since 1970.
    public var iat: Int
    /// Expires at, seconds since 1970.
    public var exp: Int
    /// Test mode only: the access-token generation; `/v1/_test/expire-access-tokens` expires older ones.
    public var gen: Int?
    /// The confirmation of a DPoP-bound token (RFC 9449 §6.1): the thumbprint of its key.
    /// Absent from the JSON of a bearer token.
    public var cnf: Confirmation?

    /// `cnf` of RFC 7800, with RFC 9449's `jkt` member.
    public struct Confirmation: Codable, Sendable, Equatable {
        /// The JWK SHA-256 thumbprint (RFC 7638) of the key the token is bound to.
        public var jkt: String

        /// Creates a confirmation.
        public init(jkt: String) {
            self.jkt = jkt
        }
    }

    /// Creates claims.
    public init(sub: String, sid: String, role: String, iat: Int, exp: Int, gen: Int? = nil, cnf: Confirmation? = nil) {
        self.sub = sub
        self.sid = sid
        self.role = role
        self.iat = iat
        self.exp = exp
        self.gen = gen
        self.cnf = cnf
    }

    /// Signature checks are done by JWTKit; the time and revocation checks need the server's clock
    /// and database, so ``AccessTokens/verify(_:)`` does them.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
