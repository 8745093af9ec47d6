internal import NetworkService
public import SessionEngine

extension SessionService {
    /// The OpenID Connect userinfo of the signed-in account, with the session's access token:
    /// refreshed first when due, and refreshed and asked again once when the userinfo endpoint
    /// answers 401 (a token the server expired or revoked before its time), as every call made
    /// through ``/SessionEngine/SessionService/request(handler:)`` is. The answer must be about
    /// the session's account (OpenID Connect Core §5.3.4).
    ///
    /// ```swift
    /// let claims = try await session.userInfo(from: provider)
    /// print(claims["name"]?.string ?? "someone")
    /// ```
    ///
    /// - Parameter provider: The provider the session signed in with.
    /// - Throws: ``SignInError`` as ``OAuthProvider/userInfo(accessToken:subject:)`` throws;
    ///   ``/SessionEngine/SessionError`` when there is no session or it ended.
    public func userInfo(from provider: OAuthProvider) async throws -> [String: JSONValue] {
        let account = try await signedInAccountID()
        do {
            return try await request { server, token in
                do throws(SignInError) {
                    // A DPoP session's server proves with its key; a bearer session's has none.
                    return try await provider.userInfo(accessToken: token, subject: account, proofing: server.proofing)
                } catch {
                    // The endpoint's own answer, so the engine reads a 401 as the token refused.
                    if error.kind == .networkFailure, let failure = error.underlying as? NetworkError, failure.kind == .httpStatus {
                        throw failure
                    }
                    throw error
                }
            }
        } catch let error as NetworkError {
            throw SignInError.from(error, endpoint: "userinfo endpoint") { code in
                SignInError.networkFailure.with(detail: "The userinfo endpoint refused the access token (\(code)).")
            }
        }
    }
}
