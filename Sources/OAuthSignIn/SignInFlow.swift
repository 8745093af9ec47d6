public import Foundation
public import SessionEngine

/// A way into a session, run by ``SessionEngine/SessionService/signIn(with:)``. Each flow ends
/// in the engine's ``/SessionEngine/SessionService/startSession(tokens:accountID:)``.
///
/// - ``browser(_:scopes:redirectPort:timeout:open:)``: a command-line or desktop front end; the user signs
///   in in their browser, which comes back to a listener on 127.0.0.1 (RFC 8252 §7.3).
/// - ``device(_:scopes:show:)``: a program without a browser (SSH, a TV, CI with a human
///   nearby): the user enters a code on another device (RFC 8628).
/// - ``clientCredentials(_:scopes:)``: a job acting as itself, no user (RFC 6749 §4.4).
/// - ``callback(_:for:_:)``: an app that receives the redirect itself (a custom scheme or a
///   universal link), with a request from ``OAuthProvider/authorizationRequest(redirectURI:scopes:)``.
///
/// ```swift
/// let result = try await session.signIn(with: .device(provider, scopes: ["openid"]) { authorization in
///     print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
/// })
/// ```
public struct SignInFlow: Sendable {
    enum Kind: Sendable {
        case browser(OAuthProvider, scopes: [String], redirectPort: UInt16?, timeout: Duration, open: @Sendable (URL) async throws -> Void)
        case device(OAuthProvider, scopes: [String], show: @Sendable (DeviceAuthorization) async throws -> Void)
        case clientCredentials(OAuthProvider, scopes: [String])
        case callback(URL, AuthorizationRequest, OAuthProvider)
    }

    let kind: Kind
    /// The sign-in level asked for (``requiring(_:)``); `nil` for none.
    var requirement: AuthenticationRequirement?

    /// This flow asking the authorization server for `requirement` (a step-up, RFC 9470:
    /// ``/SessionEngine/SessionError/authenticationRequirement`` of a
    /// ``/SessionEngine/SessionError/Kind/stepUpRequired`` error): the browser flow's
    /// authorization request and the device flow's device authorization request carry
    /// `acr_values`, `max_age` and `prompt=login` (OpenID Connect Core §3.1.2.1), and the ID
    /// token the sign-in ends with must show it met: `acr` one of the values asked for,
    /// `auth_time` within `max_age` (it must have one then) and, under `prompt=login`, not
    /// before the sign-in began when it has one (each with the provider's ``OAuthProvider/clockSkew``). Else the sign-in fails with
    /// ``SignInError/Kind/authenticationRequirementNotMet`` and nothing is stored. Ask for the
    /// `openid` scope: without an ID token, nothing shows the requirement met.
    ///
    /// A callback flow checks the ID token the same way; its URL carries the parameters when its
    /// request was made with ``OAuthProvider/authorizationRequest(redirectURI:scopes:requiring:)``.
    /// Client credentials have no user to authenticate: such a flow fails with
    /// ``SignInError/Kind/flowUnavailable``.
    ///
    /// ```swift
    /// try await session.signInAgain(with: .browser(provider, scopes: ["openid"], open: open).requiring(requirement))
    /// ```
    public func requiring(_ requirement: AuthenticationRequirement) -> SignInFlow {
        var flow = self
        flow.requirement = requirement
        return flow
    }

    /// The authorization code flow with PKCE through the user's browser and a loopback
    /// redirect (RFC 8252 §7.3): a listener on `127.0.0.1` waits for one request to
    /// `/callback`; the authorization URL's `redirect_uri` is `http://127.0.0.1:<port>/callback`.
    ///
    /// Which port: RFC 8252 §7.3 has servers accept any port of a registered loopback redirect
    /// URI, and with those (django-oauth-toolkit, Keycloak, Okta) the system picks a free one:
    /// register `http://127.0.0.1/callback`. Servers that compare the redirect URI as a string
    /// (glewlwyd, Auth0 and others) need the exact port: register
    /// `http://127.0.0.1:<port>/callback` and pass that port as `redirectPort`.
    ///
    /// The listener takes exactly one request and closes. A request to another path (404), a
    /// malformed or oversized one (400, 431) ends the flow with ``SignInError/Kind/loopbackFailed``
    /// rather than waiting on: nothing but the browser should be talking to it, and a clear
    /// error beats a hang. A request head may take 8 KiB and must arrive within 10 s of the
    /// connection.
    ///
    /// - Parameters:
    ///   - provider: The server and client.
    ///   - scopes: The scopes to ask for; with `openid`, an ID token is asked for and checked.
    ///   - redirectPort: The listener's port, for a server that matches redirect URIs exactly;
    ///     `nil` (the default) lets the system pick one. A port in use ends the flow with
    ///     ``SignInError/Kind/loopbackFailed`` (`.bind`) naming it, before the browser opens.
    ///   - timeout: How long to wait for the browser to come back. Default 5 minutes.
    ///   - open: Opens the URL in the user's browser (a command-line program prints it too,
    ///     and tries `open` or `xdg-open`).
    public static func browser(_ provider: OAuthProvider, scopes: [String], redirectPort: UInt16? = nil,
                               timeout: Duration = .seconds(300),
                               open: @escaping @Sendable (URL) async throws -> Void) -> SignInFlow {
        SignInFlow(kind: .browser(provider, scopes: scopes, redirectPort: redirectPort, timeout: timeout, open: open))
    }

    /// The device authorization grant (RFC 8628): `show` gets the user code and verification
    /// URI to show; the token endpoint is then polled at the server's `interval` (5 s more after
    /// each `slow_down`) until the user approves, declines (``SignInError/Kind/accessDenied``) or
    /// the code expires (``SignInError/Kind/expiredToken``). Cancelling the task stops polling at
    /// once (``SignInError/Kind/cancelled``).
    public static func device(_ provider: OAuthProvider, scopes: [String],
                              show: @escaping @Sendable (DeviceAuthorization) async throws -> Void) -> SignInFlow {
        SignInFlow(kind: .device(provider, scopes: scopes, show: show))
    }

    /// The client credentials grant (RFC 6749 §4.4), for a confidential client acting as itself
    /// (the provider needs a client secret). There is no refresh token: make the session's
    /// configuration ``SessionEngine/SessionService/Configuration/clientCredentials(_:scopes:)``
    /// so that a new token is obtained the same way when this one is due.
    public static func clientCredentials(_ provider: OAuthProvider, scopes: [String]) -> SignInFlow {
        SignInFlow(kind: .clientCredentials(provider, scopes: scopes))
    }

    /// Completes an authorization made with `request` whose redirect the app received itself:
    /// checks the callback URL's `state`, reads its `code` or `error`, and exchanges the code
    /// with the request's verifier.
    public static func callback(_ callbackURL: URL, for request: AuthorizationRequest, _ provider: OAuthProvider) -> SignInFlow {
        SignInFlow(kind: .callback(callbackURL, request, provider))
    }
}
