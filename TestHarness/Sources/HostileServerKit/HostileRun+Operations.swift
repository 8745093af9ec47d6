import Foundation
import AppSDKTesting
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// The SDK operations a mode attacks, as a front end would call them.
extension HostileRun {
    /// The operation; `false` when it ended without an error but did not do what it is for
    /// (a sign-out the server did not confirm).
    func operation() async throws -> Bool {
        switch mode.operation {
        case .discovery, .clientCredentialsSignIn: try await signInWithClientCredentials()
        case .deviceSignIn: try await signInWithDevice()
        case .refresh: try await refreshStoredSession()
        case .apiCall: try await callAPIWithStoredSession()
        case .userinfo: try await readUserInfo()
        case .revocation: return try await signOutStoredSession()
        }
        return true
    }

    /// Discovery, a client-credentials sign-in, then one API call with the token (whose
    /// failure is recorded, not the operation's: the sign-in is).
    private func signInWithClientCredentials() async throws {
        let oauth = try await discover()
        let session = try session(.clientCredentials(oauth, scopes: ["read"]))
        let result = try await session.signIn(with: .clientCredentials(oauth, scopes: ["read"]))
        signedIn(result)
        do {
            try await callAPI(session)
        } catch {
            recorder.error(error)
            recorder.laterError(error)
        }
    }

    /// Discovery and a device sign-in with `openid`, on the clock that waits without sleeping;
    /// the front end is handed what it would show.
    private func signInWithDevice() async throws {
        var oauth = try await discover()
        oauth.clock = signInClock.clock
        let session = try session(.oauth2(oauth))
        let recorder = recorder
        let result = try await session.signIn(with: .device(oauth, scopes: ["openid"]) { authorization in
            recorder.printed("the device authorization", authorization)
            recorder.shownToFrontEnd("the user code", authorization.userCode)
            recorder.shownToFrontEnd("the verification URI", authorization.verificationURI.absoluteString)
            if let complete = authorization.verificationURIComplete {
                recorder.shownToFrontEnd("the complete verification URI", complete.absoluteString)
            }
        })
        signedIn(result)
    }

    /// A stored session whose access token is due, refreshed by the API call (retries wait
    /// on the session's clock, not for real).
    private func refreshStoredSession() async throws {
        let oauth = try await discover()
        let clock = TestClock(Date())
        var configuration = SessionService.Configuration.oauth2(oauth)
        configuration.now = { clock.now }
        configuration.sleep = { seconds in
            clock.advance(by: seconds)
            try await Task.sleep(for: .milliseconds(5))
        }
        let session = try session(configuration)
        try await startStoredSession(session)
        clock.advance(by: 3_601)
        try await callAPI(session)
    }

    /// A stored session whose access token is good, calling the API.
    private func callAPIWithStoredSession() async throws {
        let session = try session(.oauth2(try await discover()))
        try await startStoredSession(session)
        try await callAPI(session)
    }

    /// Userinfo for the stored access token. Its answer is the server's data, handed over as
    /// it came: only errors are the SDK's text.
    private func readUserInfo() async throws {
        _ = try await discover().userInfo(accessToken: AccessToken(HostileSecrets.storedAccessToken))
    }

    /// A stored session signed out: it ends whatever the server says; the server's failure is
    /// the outcome.
    private func signOutStoredSession() async throws -> Bool {
        let session = try session(.oauth2(try await discover()))
        try await startStoredSession(session)
        let result = try await session.signOut()
        recorder.printed("the sign-out result", result)
        if let error = result.localError { recorder.error(error) }
        if let error = result.serverError { throw error }
        return result.serverConfirmed
    }

    /// The provider, discovered; in a DPoP mode, binding sign-ins to a new EdDSA key
    /// (``keyKind``), which `.oauth2` copies into the session's configuration.
    private func discover() async throws -> OAuthProvider {
        var oauth = try await OAuthProvider.discover(issuer: provider.issuer, clientID: HostileSecrets.clientID,
                                                     clientSecret: HostileSecrets.clientSecret, transport: transport)
        if mode.script.dpop { oauth.dpop = keyKind }
        recorder.printed("the discovered provider", oauth)
        return oauth
    }

    /// The SDK's EdDSA kind, with every key it makes recorded: what the kit searches outputs
    /// for (the private key) and checks the session keeps.
    private var keyKind: DPoPKeyKind {
        let recorder = recorder
        return DPoPKeyKind(algorithm: DPoPKeyKind.eddsa.algorithm, make: {
            let key = try DPoPKeyKind.eddsa.make()
            recorder.keyMade(key)
            return key
        }, signer: { key in try DPoPKeyKind.eddsa.signer(for: key) })
    }

    /// A service over the provider's API route, its observer and events recorded.
    private func session(_ configuration: SessionService.Configuration) throws -> SessionService {
        var configuration = configuration
        let recorder = recorder
        configuration.observer = SessionObserver { recorder.record($0) }
        let api = try Server(baseURL: provider.issuer.absoluteString + "/api", transport: transport)
        let session = SessionService(server: api, tokenStore: store, configuration: configuration)
        let events = session.events()
        listeners.withLock { $0.append(Task { for await event in events { recorder.event(event) } }) }
        return session
    }

    /// Starts the session the kit holds before a refresh, a sign-out or a userinfo call; in a
    /// DPoP mode, bound to a new key through the engine's DPoP sign-in (whose answer, a `DPoP`
    /// token, the kit gives without a request).
    private func startStoredSession(_ session: SessionService) async throws {
        if mode.script.dpop {
            try await session.startSession(accountID: HostileSecrets.subject) { _ in
                Tokens(accessToken: AccessToken(HostileSecrets.storedAccessToken), refreshToken: HostileSecrets.storedRefreshToken,
                       tokenType: "DPoP", expiresIn: 3_600)
            }
        } else {
            try await session.startSession(tokens: Tokens(accessToken: AccessToken(HostileSecrets.storedAccessToken),
                                                          refreshToken: HostileSecrets.storedRefreshToken, expiresIn: 3_600),
                                           accountID: HostileSecrets.subject)
        }
        recorder.storedBefore(try await store.load())
    }

    private func callAPI(_ session: SessionService) async throws {
        try await session.request { server, token in
            try await server.send(HostileAPIEndpoint(), accessToken: token)
        }
    }

    private func signedIn(_ result: SignInResult) {
        recorder.printed("the sign-in result", result)
        recorder.shownToFrontEnd("the account id", result.accountID)
    }
}
