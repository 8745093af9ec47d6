import Foundation
public import SessionEngine
import NetworkService
import TokenStore

extension SessionService.Configuration {
    /// A session with a discovered OAuth 2.0 / OpenID Connect server: refresh with
    /// `grant_type=refresh_token` at the provider's token endpoint (RFC 6749 §6), the session
    /// ending on `invalid_grant`; revoke at sign-out at its revocation endpoint (RFC 7009) when
    /// it has one. Both endpoints are absolute URLs, which may be on another origin than the
    /// API's `Server`: they are sent to where the metadata says, with the provider's transport
    /// and client authentication. Of the `Server` the engine passes, only its DPoP key is used:
    /// a session bound to a key (RFC 9449) proves it on every token request, and a bearer
    /// session sends no proof (a server may refuse a proof with a bearer refresh token).
    ///
    /// The provider's ``OAuthProvider/dpop`` becomes the configuration's
    /// ``/SessionEngine/SessionService/Configuration/dpop`` (a bearer answer refused), so sign-ins
    /// bind the session to a key of that kind.
    ///
    /// A session the server gave no refresh token has an empty one stored; it ends
    /// (``/SessionEngine/SignOutReason/refreshTokenRejected(_:)``) when its access token is due
    /// or refused, since nothing can renew it.
    ///
    /// ```swift
    /// let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
    /// ```
    public static func oauth2(_ provider: OAuthProvider) -> Self {
        let rule = RefreshFailureRule { error in
            error is NoRefreshTokenError ? .refreshTokenRejected(nil) : RefreshFailureRule.oauth2.sessionEndingReason(error)
        }
        let refresher = TokenRefresher(failureRule: rule) { credentials, server in
            try await provider.refresh(credentials, proofing: server.proofing).tokens
        }
        return Self(refresher: refresher, revoker: provider.revoker).proving(with: provider)
    }

    /// A session of a client acting as itself (RFC 6749 §4.4): when the access token is due or
    /// refused, the engine obtains a new one with the client's credentials, through its
    /// single-flight, exclusive-section refresh (so programs sharing a store make one token
    /// request per lifetime). Sign-out revokes the access token when the server has a
    /// revocation endpoint.
    ///
    /// **No refresh token.** `Credentials.refreshToken` and `Tokens.refreshToken` are
    /// non-optional, and the stored format (the file and encrypted stores' JSON, a Keychain
    /// item, a database row) has always had a string there; an optional would change every
    /// store and every adopter's refresher. So a session without a refresh token stores the
    /// empty string, which no server issues as a token: this refresher ignores it, the
    /// ``oauth2(_:)`` refresher ends such a session instead of sending it, the
    /// revokers skip it, and the engine tells two such sessions apart by their access tokens.
    ///
    /// The provider's ``OAuthProvider/dpop`` becomes the configuration's
    /// ``/SessionEngine/SessionService/Configuration/dpop``, as with ``oauth2(_:)``.
    ///
    /// ```swift
    /// let session = SessionService(server: api, tokenStore: store,
    ///                              configuration: .clientCredentials(provider, scopes: ["read"]))
    /// ```
    public static func clientCredentials(_ provider: OAuthProvider, scopes: [String]) -> Self {
        let refresher = TokenRefresher(failureRule: .oauth2) { _, server in
            try await provider.clientCredentialsGrant(scopes: scopes, proofing: server.proofing).tokens
        }
        return Self(refresher: refresher, revoker: provider.revoker).proving(with: provider)
    }

    /// This configuration binding sign-ins to keys of `provider`'s ``OAuthProvider/dpop`` kind.
    private func proving(with provider: OAuthProvider) -> Self {
        var configuration = self
        configuration.dpop = provider.dpop.map { DPoPConfiguration(keys: $0) }
        return configuration
    }
}

/// The stored session has no refresh token, so it cannot be refreshed: the session ends.
struct NoRefreshTokenError: Error, LocalizedError, CustomStringConvertible {
    var errorDescription: String? { description }
    var description: String { "The session has no refresh token (the server issued none), so it cannot be renewed: sign in again." }
}

extension OAuthProvider {
    /// `grant_type=refresh_token` with `credentials`' refresh token (RFC 6749 §6), proving
    /// `proofing`'s key when given (RFC 9449 §5: a bound refresh token needs it).
    func refresh(_ credentials: Credentials, proofing: DPoPProofing?) async throws -> TokenReply {
        guard !credentials.refreshToken.isEmpty else { throw NoRefreshTokenError() }
        let fields = [(name: "grant_type", value: "refresh_token"), ("refresh_token", credentials.refreshToken)]
        let answer = try await AuthorizationServerClient(provider: self, proofing: proofing)
            .postReadingDate(metadata.tokenEndpoint, fields, secrets: [credentials.refreshToken])
        guard let reply = TokenReply(answer.object, keepingRefreshToken: credentials.refreshToken,
                                     serverDate: answer.serverDate, proved: proofing != nil) else {
            throw NetworkError(kind: .decoding, method: .post, path: AuthorizationServerClient.path(of: metadata.tokenEndpoint), statusCode: 200,
                               serverMessage: "the token endpoint's answer cannot be used: "
                                   + (TokenReply.problem(in: answer.object, proved: proofing != nil) ?? "it is not a token reply"))
        }
        return reply
    }

    /// Revokes the refresh token (when there is one), then the access token (RFC 7009), at the
    /// revocation endpoint; local only without one. Both are tried whatever the first answered;
    /// `unsupported_token_type` for the access token is fine. A session with a DPoP key proves
    /// it with the engine's server's proofing (RFC 7009 asks for none; a server may).
    var revoker: SessionRevoker {
        guard let endpoint = metadata.revocationEndpoint else { return .localOnly }
        return SessionRevoker { [self] credentials, server in
            let client = AuthorizationServerClient(provider: self, proofing: credentials.dpopKey == nil ? nil : server.proofing)
            var failure: NetworkError?
            for (token, hint) in [(credentials.refreshToken, "refresh_token"), (credentials.accessToken.rawValue, "access_token")]
            where !token.isEmpty {
                do throws(NetworkError) {
                    let request = [(name: "token", value: token), ("token_type_hint", hint)]
                    _ = try await client.postExpectingAnyBody(endpoint, request, secrets: [token])
                } catch where error.serverErrorCode == .unsupportedTokenType {
                    continue
                } catch {
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
        }
    }
}
