public import Foundation
public import NetworkService
public import OAuthSignIn
public import SessionEngine
public import TokenStore

/// An adopter of the SDK signing in to an OAuth 2.0 / OpenID Connect server, written exactly as
/// docs/OTHER-SERVERS.md and the OAuthSignIn DocC articles show it: each function's body is
/// the documented example, line for line, so the conformance suite runs what the docs teach.
/// (The front end's part, opening a browser or showing a code, is the parameter the test fills
/// in by playing the user.)
public enum OIDCAdopter {
    /// docs/OTHER-SERVERS.md, "Sign in with the browser".
    public static func signInWithBrowser(issuer: URL, clientID: String, api: Server, store: any TokenStore,
                                         openBrowser: @escaping @Sendable (URL) async throws -> Void) async throws
        -> (SessionService, SignInResult) {
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID)
        let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
        let result = try await session.signIn(with: .browser(provider, scopes: ["openid", "profile"]) { url in
            try await openBrowser(url)   // a command-line program prints the URL and runs `open`/`xdg-open`
        })
        return (session, result)
    }

    /// docs/OTHER-SERVERS.md, "Sign in with a code on another device".
    public static func signInWithDevice(issuer: URL, clientID: String, api: Server, store: any TokenStore,
                                        showCode: @escaping @Sendable (DeviceAuthorization) async throws -> Void) async throws
        -> (SessionService, SignInResult) {
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID)
        let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
        let result = try await session.signIn(with: .device(provider, scopes: ["openid", "profile"]) { authorization in
            try await showCode(authorization)   // "Open \(authorization.verificationURI) and enter \(authorization.userCode)"
        })
        return (session, result)
    }

    /// docs/OTHER-SERVERS.md, "A job acting as itself: client credentials". Programs sharing
    /// `store` sign in once between them; each then obtains new tokens only when they are due.
    public static func clientCredentialsSession(issuer: URL, clientID: String, clientSecret: String, scopes: [String],
                                                api: Server, store: any TokenStore) async throws -> SessionService {
        let provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID, clientSecret: clientSecret)
        let session = SessionService(server: api, tokenStore: store,
                                     configuration: .clientCredentials(provider, scopes: scopes))
        try await session.signInIfNeeded(with: .clientCredentials(provider, scopes: scopes))
        return session
    }

    /// README.md, "DPoP (RFC 9449)": a session whose sign-ins bind it to an EdDSA key.
    public static func dpopSession(issuer: URL, clientID: String, api: Server, store: any TokenStore) async throws -> SessionService {
        var provider = try await OAuthProvider.discover(issuer: issuer, clientID: clientID)
        provider.dpop = .eddsa   // or .es256 on Apple platforms, .swiftCryptoES256 on Linux
        let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
        return session
    }
}
