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

    /// Creates claims.
    public init(sub: String, sid: String, role: String, iat: Int, exp: Int, gen: Int? = nil) {
        self.sub = sub
        self.sid = sid
        self.role = role
        self.iat = iat
        self.exp = exp
        self.gen = gen
    }

    /// Signature checks are done by JWTKit; the time and revocation checks need the server's clock
    /// and database, so ``AccessTokens/verify(_:)`` does them.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
