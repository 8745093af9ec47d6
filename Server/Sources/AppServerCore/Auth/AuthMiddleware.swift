import Foundation
public import Hummingbird

/// Authenticates bearer routes: verifies the access token and checks on every request that its
/// session family is still live, so sign-out and reuse detection take effect at once.
public struct AuthMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let accessTokens: AccessTokens
    let database: Database
    /// DPoP's rules; `nil` when DPoP is off (only `Bearer`, as before DPoP).
    let dpop: DPoPGate?

    /// Creates the middleware.
    init(accessTokens: AccessTokens, database: Database, dpop: DPoPGate? = nil) {
        self.accessTokens = accessTokens
        self.database = database
        self.dpop = dpop
    }

    /// Sets `context.identity` or throws 401.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let claims: AccessTokenClaims
        let sessionEnded: APIError
        if let dpop {
            let presented = try await dpopClaims(request, gate: dpop)
            claims = presented.claims
            sessionEnded = dpop.unauthorized(
                .invalidToken, message: Self.sessionEnded.message, challengeError: "invalid_token", presented: presented.scheme
            )
        } else {
            claims = try await bearerClaims(request)
            sessionEnded = Self.sessionEnded
        }
        guard let memberID = UUID(uuidString: claims.sub) else { throw APIError.invalidToken("The access token is malformed.") }
        let sessionID = claims.sid
        guard let role = try await liveRole(sessionID: sessionID, memberID: memberID) else { throw sessionEnded }
        var context = context
        context.identity = Identity(memberID: memberID, sessionID: sessionID, role: role)
        do {
            return try await next(request, context)
        } catch let error as DatabaseError {
            // The session check above and the route's own transaction are separate: the account
            // (or the session) may be deleted in between, and the route's insert then fails on a
            // foreign key. That is a request of an ended session (401), not a server failure.
            if (try? await liveRole(sessionID: sessionID, memberID: memberID)) == .some(nil) { throw sessionEnded }
            throw error
        } catch let error as APIError where error.code == .notFound && error.message == APIError.memberGone.message {
            // `/v1/members/me` found no member: the account was deleted after the check above.
            throw sessionEnded
        }
    }

    /// DPoP off: `Authorization: Bearer <token>`, verified; a token's `cnf` is not looked at.
    private func bearerClaims(_ request: Request) async throws(APIError) -> AccessTokenClaims {
        guard let header = request.headers[.authorization] else { throw APIError.missingToken }
        let prefix = "bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix else {
            throw APIError.invalidToken("The Authorization header must be 'Bearer <token>'.")
        }
        let token = header.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        do throws(AccessTokenError) {
            return try await accessTokens.verify(token)
        } catch {
            throw error.apiError
        }
    }

    /// DPoP allowed or required (RFC 9449 §7): `DPoP <token>` with a proof whose `ath` is the
    /// token's hash and whose key is the token's `cnf.jkt`; `Bearer <token>` only for a token
    /// without `cnf` (§7.2), and not at all under `required`.
    private func dpopClaims(_ request: Request, gate: DPoPGate) async throws(APIError) -> (claims: AccessTokenClaims, scheme: DPoPGate.Scheme) {
        guard let header = request.headers[.authorization] else {
            throw gate.unauthorized(.invalidToken, message: "This route needs an access token.", challengeError: nil, presented: nil)
        }
        let scheme: DPoPGate.Scheme
        let token: String
        if header.count > 7, header.prefix(7).lowercased() == "bearer " {
            scheme = .bearer
            token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        } else if header.count > 5, header.prefix(5).lowercased() == "dpop " {
            scheme = .dpop
            token = header.dropFirst(5).trimmingCharacters(in: .whitespaces)
        } else {
            throw gate.unauthorized(
                .invalidToken, message: "The Authorization header must be 'Bearer <token>' or 'DPoP <token>'.",
                challengeError: "invalid_token", presented: nil
            )
        }
        func refused(_ code: APIError.Code, _ message: String) -> APIError {
            gate.unauthorized(code, message: message, challengeError: "invalid_token", presented: scheme)
        }
        let claims: AccessTokenClaims
        do throws(AccessTokenError) {
            claims = try await accessTokens.verify(token)
        } catch {
            let bearer = error.apiError
            throw refused(bearer.code, bearer.message)
        }
        switch (scheme, claims.cnf?.jkt) {
        case (.bearer, .some):
            throw refused(.invalidToken, "This access token is bound to a DPoP key: present it as 'DPoP <token>' with a proof.")
        case (.bearer, nil):
            guard gate.mode == .allowed else { throw refused(.invalidToken, "This server requires DPoP-bound access tokens.") }
        case (.dpop, nil):
            throw refused(.invalidToken, "This access token is not DPoP-bound: present it as 'Bearer <token>'.")
        case (.dpop, let jkt?):
            let proof: VerifiedDPoPProof
            do throws(DPoPRefusal) {
                proof = try gate.resourceProof(request, accessToken: token)
            } catch {
                throw gate.unauthorized(error)
            }
            guard proof.thumbprint == jkt else { throw gate.unauthorized(DPoPRefusal.keyMismatch) }
        }
        return (claims, scheme)
    }

    /// 401 `invalid_token` for a token whose session family was revoked or whose account was deleted.
    static let sessionEnded = APIError.invalidToken("The session has ended.")

    private func liveRole(sessionID: String, memberID: UUID) async throws -> Role? {
        try await database.transaction { transaction in
            try await SessionStore.liveSessionRole(sessionID: sessionID, memberID: memberID, in: transaction)
        }
    }
}

extension AccessTokenError {
    /// The 401 a bearer route answers for this refusal.
    var apiError: APIError {
        switch self {
        case .expired: APIError.tokenExpired
        case .unsupportedAlgorithm: APIError.invalidToken("The access token must be signed with HS256.")
        case .badSignature: APIError.invalidToken("The access token's signature is invalid.")
        case .malformed: APIError.invalidToken("The access token is malformed.")
        }
    }
}
