import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// One mode's operation, run against its provider through the kit's transport, with
/// everything the SDK hands back recorded.
struct HostileRun: Sendable {
    let mode: HostileMode
    let provider: HostileProvider
    let transport: LoopbackGuardTransport
    let recorder: HostileRecorder
    let store = InMemoryTokenStore()
    let signInClock = VirtualSignInClock()
    /// The tasks reading the sessions' events.
    private let listeners = LockedValue<[Task<Void, Never>]>([])

    /// Stops reading the sessions' events, once what was sent has been read.
    func stopListening() async {
        try? await Task.sleep(for: .milliseconds(50))
        for task in listeners.withLock({ $0 }) { task.cancel() }
    }

    /// Runs the operation: whether it succeeded, and what it threw.
    func perform() async -> (succeeded: Bool, error: (any Error)?) {
        do {
            let succeeded = try await operation()
            return (succeeded, nil)
        } catch {
            recorder.error(error)
            return (false, error)
        }
    }

    /// The operation; `false` when it ended without an error but did not do what it is for
    /// (a sign-out the server did not confirm).
    private func operation() async throws -> Bool {
        switch mode.operation {
        case .discovery, .clientCredentialsSignIn:
            let oauth = try await discover()
            let session = try session(.clientCredentials(oauth, scopes: ["read"]))
            let result = try await session.signIn(with: .clientCredentials(oauth, scopes: ["read"]))
            signedIn(result)
            // The sign-in is the operation; the call shows what the stored token does on the wire.
            do {
                try await callAPI(session)
            } catch {
                recorder.error(error)
                recorder.laterError(error)
            }
        case .deviceSignIn:
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
        case .refresh:
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
        case .apiCall:
            let oauth = try await discover()
            let session = try session(.oauth2(oauth))
            try await startStoredSession(session)
            try await callAPI(session)
        case .userinfo:
            let oauth = try await discover()
            // The answer is the server's data, handed over as it came: only errors are the SDK's text.
            _ = try await oauth.userInfo(accessToken: AccessToken(HostileSecrets.storedAccessToken))
        case .revocation:
            let oauth = try await discover()
            let session = try session(.oauth2(oauth))
            try await startStoredSession(session)
            let result = try await session.signOut()
            recorder.printed("the sign-out result", result)
            if let error = result.localError { recorder.error(error) }
            // The sign-out ends the session whatever the server says; the server's failure is the outcome.
            if let error = result.serverError { throw error }
            return result.serverConfirmed
        }
        return true
    }

    /// The stored session after the operation.
    func storedAfter() async -> Credentials? {
        try? await store.load()
    }

    private func discover() async throws -> OAuthProvider {
        let oauth = try await OAuthProvider.discover(issuer: provider.issuer, clientID: HostileSecrets.clientID,
                                                     clientSecret: HostileSecrets.clientSecret, transport: transport)
        recorder.printed("the discovered provider", oauth)
        return oauth
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

    /// Starts the session the kit holds before a refresh, a sign-out or a userinfo call.
    private func startStoredSession(_ session: SessionService) async throws {
        try await session.startSession(tokens: Tokens(accessToken: AccessToken(HostileSecrets.storedAccessToken),
                                                      refreshToken: HostileSecrets.storedRefreshToken, expiresIn: 3_600),
                                       accountID: HostileSecrets.subject)
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

/// `GET {issuer}/api/me`, the API call a session makes with its access token.
struct HostileAPIEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/me" }
}

/// A sign-in clock that waits without sleeping: its time is the real time plus every wait,
/// so a device sign-in polls at once however long the server asks it to wait, and the kit
/// can tell how long it would have waited.
final class VirtualSignInClock: Sendable {
    private let waited = LockedValue<Double>(0)

    /// The seconds waited so far.
    var secondsWaited: Double { waited.withLock { $0 } }

    var clock: SignInClock {
        SignInClock(now: { [waited] in Date().addingTimeInterval(waited.withLock { $0 }) },
                    sleep: { [waited] duration in
                        let (seconds, attoseconds) = duration.components
                        waited.withLock { $0 += Double(seconds) + Double(attoseconds) / 1e18 }
                        try await Task.sleep(for: .milliseconds(2))
                    })
    }
}
