import Foundation
public import Hummingbird

/// Authenticates bearer routes: verifies the access token and checks on every request that its
/// session family is still live, so sign-out and reuse detection take effect at once.
public struct AuthMiddleware: RouterMiddleware {
    /// The context of the routes.
    public typealias Context = AppRequestContext

    let accessTokens: AccessTokens
    let database: Database

    /// Creates the middleware.
    init(accessTokens: AccessTokens, database: Database) {
        self.accessTokens = accessTokens
        self.database = database
    }

    /// Sets `context.identity` or throws 401.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw APIError.missingToken }
        let prefix = "bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix else {
            throw APIError.invalidToken("The Authorization header must be 'Bearer <token>'.")
        }
        let token = header.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        let claims: AccessTokenClaims
        do throws(AccessTokenError) {
            claims = try await accessTokens.verify(token)
        } catch .expired {
            throw APIError.tokenExpired
        } catch .unsupportedAlgorithm {
            throw APIError.invalidToken("The access token must be signed with HS256.")
        } catch .badSignature {
            throw APIError.invalidToken("The access token's signature is invalid.")
        } catch .malformed {
            throw APIError.invalidToken("The access token is malformed.")
        }
        guard let memberID = UUID(uuidString: claims.sub) else { throw APIError.invalidToken("The access token is malformed.") }
        let sessionID = claims.sid
        guard let role = try await liveRole(sessionID: sessionID, memberID: memberID) else { throw Self.sessionEnded }
        var context = context
        context.identity = Identity(memberID: memberID, sessionID: sessionID, role: role)
        do {
            return try await next(request, context)
        } catch let error as DatabaseError {
            // The session check above and the route's own transaction are separate: the account
            // (or the session) may be deleted in between, and the route's insert then fails on a
            // foreign key. That is a request of an ended session (401), not a server failure.
            if (try? await liveRole(sessionID: sessionID, memberID: memberID)) == .some(nil) { throw Self.sessionEnded }
            throw error
        } catch let error as APIError where error.code == .notFound && error.message == APIError.memberGone.message {
            // `/v1/members/me` found no member: the account was deleted after the check above.
            throw Self.sessionEnded
        }
    }

    /// 401 `invalid_token` for a token whose session family was revoked or whose account was deleted.
    static let sessionEnded = APIError.invalidToken("The session has ended.")

    private func liveRole(sessionID: String, memberID: UUID) async throws -> Role? {
        try await database.transaction { transaction in
            try await SessionStore.liveSessionRole(sessionID: sessionID, memberID: memberID, in: transaction)
        }
    }
}
