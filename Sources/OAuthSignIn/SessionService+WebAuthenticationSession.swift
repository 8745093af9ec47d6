// The browser sign-in of an iOS, macOS or visionOS app: Apple's ASWebAuthenticationSession shows
// the server's sign-in page and hands back the redirect to the app's custom scheme (or universal
// link), which ends in SignInFlow.callback. Apple platforms only (tvOS has no such session).
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
public import AuthenticationServices
public import Foundation
public import SessionEngine

extension SessionService {
    /// Signs in with the authorization code flow (PKCE, `state`, `nonce` with `openid`) through
    /// `ASWebAuthenticationSession`, and keeps the session as ``signIn(with:)`` does.
    ///
    /// ```swift
    /// let provider = try await OAuthProvider.discover(issuer: issuer, clientID: "ios-app")
    /// let session = SessionService(server: api, tokenStore: store, configuration: .oauth2(provider))
    /// let result = try await session.signInWithWebAuthenticationSession(
    ///     provider, scopes: ["openid", "profile"],
    ///     redirectURI: URL(string: "com.example.app:/oauth/callback")!,
    ///     presentationContextProvider: self)   // supplies the window to present from
    /// ```
    ///
    /// - Parameters:
    ///   - provider: The discovered server and the app's client.
    ///   - scopes: The scopes to ask for; with `openid`, an ID token is asked for and checked.
    ///   - redirectURI: The redirect URI registered for the client; its scheme is the one the
    ///     session listens for (a custom scheme, or `https` for a universal link).
    ///   - presentationContextProvider: Supplies the window the sign-in sheet is shown from.
    ///   - prefersEphemeralWebBrowserSession: Whether to share no cookies with the browser.
    /// - Throws: ``SignInError``: ``SignInError/Kind/cancelled`` when the user closes the sheet,
    ///   ``SignInError/Kind/frontEndFailed`` when the session cannot start or fails, and every
    ///   error of ``SignInFlow/callback(_:for:_:)``.
    @MainActor
    @discardableResult
    public func signInWithWebAuthenticationSession(
        _ provider: OAuthProvider,
        scopes: [String],
        redirectURI: URL,
        presentationContextProvider: any ASWebAuthenticationPresentationContextProviding,
        prefersEphemeralWebBrowserSession: Bool = false
    ) async throws -> SignInResult {
        let request = try provider.authorizationRequest(redirectURI: redirectURI, scopes: scopes)
        var webSession: ASWebAuthenticationSession?
        let callbackURL: URL = try await withCheckedThrowingContinuation { continuation in
            let session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: redirectURI.scheme) { url, error in
                if let url {
                    continuation.resume(returning: url)
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    continuation.resume(throwing: SignInError.cancelled)
                } else {
                    continuation.resume(throwing: SignInError.frontEndFailed.with(
                        detail: "The web authentication session failed.", underlying: error))
                }
            }
            session.presentationContextProvider = presentationContextProvider
            session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            webSession = session
            if !session.start() {
                // It did not start, so it calls no completion handler.
                continuation.resume(throwing: SignInError.frontEndFailed.with(
                    detail: "The web authentication session did not start (no presentation context?)."))
            }
        }
        withExtendedLifetime(webSession) {}   // kept until its sheet is done
        return try await signIn(with: .callback(callbackURL, for: request, provider))
    }
}
#endif
