import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine

import Testing
import TokenStore

@Suite("The device authorization grant (RFC 8628), with time moved by hand")
struct DeviceFlowTests {
    func session(_ fake: FakeOIDCServer, _ provider: OAuthProvider, store: any TokenStore = InMemoryTokenStore()) -> SessionService {
        SessionService(server: fake.api, tokenStore: store, configuration: .oauth2(provider))
    }

    /// The seconds between the start and each poll.
    func pollOffsets(_ fake: FakeOIDCServer, from start: Date) -> [Int] {
        fake.state.withLock { $0.devicePollTimes }.map { Int($0.timeIntervalSince(start).rounded()) }
    }

    @Test("the front end is shown the user code and URIs; polling waits the interval, through authorization_pending, then starts the session")
    func approved() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.devicePolls = ["authorization_pending", "authorization_pending", "approve"] }
        let provider = try await fake.provider()
        let shown = LockedValue<DeviceAuthorization?>(nil)
        let store = InMemoryTokenStore()
        let start = fake.clock.now
        let result = try await session(fake, provider, store: store).signIn(with: .device(provider, scopes: ["openid", "profile"]) {
            authorization in shown.withLock { $0 = authorization }
        })
        let authorization = try #require(shown.withLock { $0 })
        #expect(authorization.userCode == FakeOIDCServer.userCode)
        #expect(authorization.verificationURI.absoluteString == fake.issuer.absoluteString + "/device/")
        #expect(authorization.verificationURIComplete?.absoluteString.hasSuffix("user_code=\(FakeOIDCServer.userCode)") == true)
        #expect(authorization.interval == 5 && authorization.expiresIn == 600)
        #expect(pollOffsets(fake, from: start) == [5, 10, 15])
        #expect(result.accountID == "user-42" && result.idToken?.sub == "user-42")
        #expect(try await store.load()?.accountID == "user-42")
        let start0 = try #require(fake.requests.first { $0.url.absoluteString.hasSuffix("/device-authorization/") })
        #expect(FakeOIDCServer.form(of: start0) == ["scope": "openid profile", "client_id": FakeOIDCServer.clientID])
        let poll = try #require(fake.requests.last { FakeOIDCServer.form(of: $0)["device_code"] != nil })
        #expect(FakeOIDCServer.form(of: poll)["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
    }

    @Test("a server that sends no ID token for the device grant (RFC 8628 asks for none): the account is userinfo's sub")
    func approvedWithoutIDToken() async throws {
        let fake = try FakeOIDCServer()
        fake.configure {
            $0.devicePolls = ["approve"]
            $0.sendsIDToken = false
        }
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let result = try await session(fake, provider, store: store).signIn(with: .device(provider, scopes: ["openid", "profile"]) { _ in })
        #expect(result.accountID == "user-42" && result.idToken == nil)
        #expect(try await store.load()?.accountID == "user-42")
        #expect(fake.requests.contains { $0.url.absoluteString.hasSuffix("/userinfo/") })
    }

    @Test("slow_down adds 5 seconds to the interval for every later poll")
    func slowDown() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.devicePolls = ["slow_down", "authorization_pending", "slow_down", "approve"] }
        let provider = try await fake.provider()
        let start = fake.clock.now
        try await session(fake, provider).signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        #expect(pollOffsets(fake, from: start) == [5, 15, 25, 40])
    }

    @Test("access_denied and expired_token end the flow with their errors, and nothing is stored",
          arguments: [("access_denied", SignInError.accessDenied), ("expired_token", .expiredToken)])
    func refused(answer: String, expected: SignInError) async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.devicePolls = ["authorization_pending", answer] }
        let provider = try await fake.provider()
        let store = InMemoryTokenStore()
        let error = try await #require(throws: SignInError.self) {
            try await session(fake, provider, store: store).signIn(with: .device(provider, scopes: ["openid"]) { _ in })
        }
        #expect(error == expected)
        #expect(error.serverErrorCode?.rawValue == answer)
        #expect(try await store.load() == nil)
    }

    @Test("another token endpoint error ends polling with its code")
    func otherError() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.devicePolls = ["invalid_client"] }
        let provider = try await fake.provider()
        await #expect(throws: SignInError.tokenEndpointError("invalid_client")) {
            try await session(fake, provider).signIn(with: .device(provider, scopes: []) { _ in })
        }
    }

    @Test("the device code's own expiry ends polling with expiredToken even while the server keeps saying pending")
    func ownExpiry() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.deviceExpiresIn = 30; $0.deviceInterval = 10 }
        let provider = try await fake.provider()
        let start = fake.clock.now
        let error = try await #require(throws: SignInError.self) {
            try await session(fake, provider).signIn(with: .device(provider, scopes: []) { _ in })
        }
        #expect(error == .expiredToken)
        #expect(pollOffsets(fake, from: start) == [10, 20])
    }

    @Test("without interval and expires_in the RFC's defaults apply (5 s, 30 min); absurd values are bounded")
    func defaultsAndBounds() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.deviceInterval = nil; $0.deviceExpiresIn = nil }
        let provider = try await fake.provider()
        let authorization = try await provider.startDeviceAuthorization(scopes: [])
        #expect(authorization.interval == 5 && authorization.expiresIn == 1800)
        fake.configure { $0.deviceInterval = 1_000_000_000; $0.deviceExpiresIn = Int.max }
        let bounded = try await provider.startDeviceAuthorization(scopes: [])
        #expect(bounded.interval == 300 && bounded.expiresIn == 86_400)
    }

    @Test("a refused device authorization request is deviceAuthorizationError with the server's code; a server without the endpoint is flowUnavailable")
    func startRefused() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        fake.transport.serve { _ in .json(401, #"{"error":"invalid_client"}"#) }
        await #expect(throws: SignInError.deviceAuthorizationError("invalid_client")) {
            try await provider.startDeviceAuthorization(scopes: [])
        }
        let other = try FakeOIDCServer()
        other.configure { $0.document["device_authorization_endpoint"] = nil }
        let withoutDevice = try await other.provider()
        await #expect(throws: SignInError.flowUnavailable) { try await withoutDevice.startDeviceAuthorization(scopes: []) }
    }

    @Test("cancelling the task ends polling promptly with cancelled, on the real clock")
    func cancellable() async throws {
        let fake = try FakeOIDCServer()
        var provider = try await fake.provider()
        provider.clock = .system  // polling waits 5 real seconds: cancellation must not wait for it
        let shown = AsyncStream<Void>.makeStream()
        let task = Task {
            try await session(fake, provider).signIn(with: .device(provider, scopes: []) { _ in shown.continuation.yield() })
        }
        for await _ in shown.stream { break }
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let error = try await #require(throws: SignInError.self) { try await task.value }
        #expect(error == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .seconds(2))
        #expect(fake.state.withLock { $0.devicePollTimes }.isEmpty)
    }

    @Test("an error thrown by show ends the flow as frontEndFailed before any poll")
    func showFails() async throws {
        struct NoScreen: Error {}
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let error = try await #require(throws: SignInError.self) {
            try await session(fake, provider).signIn(with: .device(provider, scopes: []) { _ in throw NoScreen() })
        }
        #expect(error == .frontEndFailed && error.underlying is NoScreen)
        #expect(fake.state.withLock { $0.devicePollTimes }.isEmpty)
    }
}

@Suite("The device grant over a flaky network")
struct DeviceFlowTransientTests {
    @Test("a timeout or a 503 while polling doubles the interval and polling goes on (RFC 8628 §3.5), up to the approval")
    func transientFailuresBackOff() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.devicePolls = ["approve"] }
        let provider = try await fake.provider()
        let authorization = try await provider.startDeviceAuthorization(scopes: [])
        let failures = LockedValue(0)
        let serve = fake.transport
        let start = fake.clock.now
        let times = LockedValue<[Int]>([])
        let clock = fake.clock
        serve.serve { request in
            times.withLock { $0.append(Int(clock.now.timeIntervalSince(start).rounded())) }
            switch failures.withLock({ count -> Int in count += 1; return count }) {
            case 1: throw TransportError(.timedOut)
            case 2: return .status(503)
            default:
                return .json(200, #"{"access_token":"device-access-1","token_type":"Bearer","expires_in":60}"#)
            }
        }
        let reply = try await provider.pollForTokens(authorization)
        #expect(reply.tokens.accessToken.rawValue == "device-access-1")
        #expect(times.withLock { $0 } == [5, 15, 35])
    }
}
