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
        let role = try await database.transaction { transaction in
            try await SessionStore.liveSessionRole(sessionID: sessionID, memberID: memberID, in: transaction)
        }
        guard let role else { throw APIError.invalidToken("The session has ended.") }
        var context = context
        context.identity = Identity(memberID: memberID, sessionID: sessionID, role: role)
        return try await next(request, context)
    }
}
