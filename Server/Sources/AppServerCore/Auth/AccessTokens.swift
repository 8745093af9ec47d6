public import Foundation
import JWTKit

/// Issues and verifies the HS256 access tokens.
public struct AccessTokens: Sendable {
    /// The only accepted algorithm.
    public static let algorithm = "HS256"

    private let keys: JWTKeyCollection
    /// How long a new token lives.
    public let lifetime: Duration
    private let clock: TimeSource
    private let generations: AccessTokenGenerations?

    /// Creates the issuer.
    /// - Parameters:
    ///   - secret: the HMAC key (its UTF-8 bytes); at least 32 bytes.
    ///   - generations: in test mode, the generation counter behind `expire-access-tokens`.
    public init(secret: String, lifetime: Duration, clock: TimeSource, generations: AccessTokenGenerations? = nil) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Array(secret.utf8)), digestAlgorithm: .sha256)
        self.keys = keys
        self.lifetime = lifetime
        self.clock = clock
        self.generations = generations
    }

    /// A signed token for a member's session, with its expiry.
    /// - Parameter jkt: the thumbprint of the DPoP key of a bound session, put in `cnf.jkt`;
    ///   `nil` for a bearer session (its token is then byte for byte what it was before DPoP).
    public func issue(memberID: UUID, sessionID: String, role: Role, jkt: String? = nil) async throws -> (token: String, expiresAt: Date) {
        let instant = clock.now().timeIntervalSince1970
        let now = Int(instant.rounded(.down))
        // JWT times are whole seconds: round the expiry up, so that a token lives at least its
        // lifetime (`expires_in`) from the moment it was issued. Truncating it would end a
        // 5-second token up to a second early, and a client counting `expires_in` from when it
        // asked would present it after the server stopped taking it.
        let exp = Int((instant + TimeInterval(lifetime.components.seconds)).rounded(.up))
        let claims = AccessTokenClaims(
            sub: memberID.uuidString.lowercased(), sid: sessionID, role: role.rawValue,
            iat: now, exp: exp, gen: generations?.current, cnf: jkt.map { AccessTokenClaims.Confirmation(jkt: $0) }
        )
        let token = try await keys.sign(claims, header: ["alg": .string(Self.algorithm), "typ": .string("JWT")])
        return (token, Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    /// Checks a token's form, algorithm, signature and expiry (not its session: see ``AuthMiddleware``).
    public func verify(_ token: String) async throws(AccessTokenError) -> AccessTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]) else { throw .malformed }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else { throw .malformed }
        // JWTKit picks the key by `kid` and then verifies with that key's algorithm; it does not compare
        // the header's `alg`. Insist on HS256 ourselves so that `none`, HS384, RS256, ... never pass.
        guard header.alg == Self.algorithm else { throw .unsupportedAlgorithm }
        if let typ = header.typ, typ.uppercased() != "JWT" { throw .malformed }
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        guard UUID(uuidString: claims.sub) != nil else { throw .malformed }
        let now = clock.now().timeIntervalSince1970
        guard now < TimeInterval(claims.exp) else { throw .expired }
        if let generations, (claims.gen ?? Int.min) < generations.minimumValid {
            throw .expired
        }
        return claims
    }

    private struct Header: Decodable {
        var alg: String?
        var typ: String?
    }
}

/// Why an access token was refused.
public enum AccessTokenError: Error, Equatable {
    /// Not three base64url parts of JSON, or claims missing.
    case malformed
    /// `alg` is not HS256 (including `none`).
    case unsupportedAlgorithm
    /// The signature does not match (wrong key or edited header or payload).
    case badSignature
    /// Past `exp`, or expired by the test-mode `expire-access-tokens`.
    case expired
}
