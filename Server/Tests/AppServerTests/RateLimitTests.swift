import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 11: sign-in and sign-up were not throttled.
@Suite("Sign-in and sign-up throttling")
struct RateLimitTests {
    static func configuration(_ limits: RateLimits?) -> ServerConfiguration {
        var configuration = TestServer.configuration()
        configuration.rateLimits = limits
        return configuration
    }

    static let limits = RateLimits(window: .seconds(600), signInFailuresPerAccount: 3, signInFailuresPerAddress: 1000, signUpsPerAddress: 4)

    static func wrongPassword(_ api: API, _ email: String) async throws -> TestResponse {
        try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"\#(email)","password":"wrong-password"}"#)
    }

    @Test("the N+1th sign-in for an account after N wrong passwords is 429 rate_limited with Retry-After, until the window moves on")
    func perAccount() async throws {
        let clock = TestClock()
        try await TestServer.run(configuration: Self.configuration(Self.limits), clock: clock) { api in
            _ = try await api.signUp("ann@example.com")
            _ = try await api.signUp("bob@example.com")
            for _ in 0..<3 {
                #expect(try await Self.wrongPassword(api, "ann@example.com").errorCode == "invalid_credentials")
                clock.advance(by: 100)
            }
            // 300 s after the first failure: the right password is refused too, for 300 more seconds.
            let limited = try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"ann@example.com","password":"password-1"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] == "300")
            #expect(limited.errorMessage == "Too many attempts; try again in 300 seconds.")
            #expect(limited.headers[.contentType] == "application/json; charset=utf-8")
            #expect(try await Self.wrongPassword(api, "ANN@example.com").headers[.retryAfter] == "300")
            // Other accounts are not affected.
            #expect(try await api.signIn("bob@example.com", password: "password-1").member.email == "bob@example.com")
            clock.advance(by: 299)
            #expect(try await Self.wrongPassword(api, "ann@example.com").headers[.retryAfter] == "1")
            clock.advance(by: 1)
            // The first failure has left the window: one more attempt is allowed.
            #expect(try await api.signIn("ann@example.com", password: "password-1").member.email == "ann@example.com")
        }
    }

    @Test("sign-ups from one address beyond the limit get 429 rate_limited with Retry-After")
    func signUpsPerAddress() async throws {
        let clock = TestClock()
        try await TestServer.run(configuration: Self.configuration(Self.limits), clock: clock) { api in
            for index in 0..<4 {
                _ = try await api.signUp("user\(index)@example.com")
            }
            // An invalid sign-up is 400 and does not count; a valid one is now limited.
            #expect(try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"x","password":"password-1","nickname":"x"}"#).status == .badRequest)
            let limited = try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"user9@example.com","password":"password-1","nickname":"n"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] == "600")
            clock.advance(by: 600)
            _ = try await api.signUp("user9@example.com")
        }
    }

    @Test("failed sign-ins per address are limited across accounts")
    func signInFailuresPerAddress() async throws {
        var limits = Self.limits
        limits.signInFailuresPerAddress = 5
        try await TestServer.run(configuration: Self.configuration(limits)) { api in
            for index in 0..<5 {
                #expect(try await Self.wrongPassword(api, "nobody\(index)@example.com").status == .unauthorized)
            }
            let limited = try await Self.wrongPassword(api, "someone-else@example.com")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(Int(limited.headers[.retryAfter] ?? "") != nil)
        }
    }

    /// Issue 26 (10): the limit was checked before and recorded after verifying the password, so
    /// 50 or 200 concurrent wrong passwords were all verified, and a right one among them signed in.
    @Test("of concurrent sign-ins for one account, only the limit are verified: the rest, the right password too, get 429")
    func concurrentSignIns() async throws {
        var configuration = Self.configuration(Self.limits)
        // bcrypt at the production cost: verifications overlap as they do under attack.
        configuration.bcryptCost = ServerConfiguration.defaultBcryptCost
        try await TestServer.run(configuration: configuration) { api in
            _ = try await api.signUp("ann@example.com")
            let (wrong, right) = try await withThrowingTaskGroup(of: (isRight: Bool, status: HTTPResponse.Status).self) { group in
                for _ in 0..<20 {
                    group.addTask { (false, try await Self.wrongPassword(api, "ann@example.com").status) }
                }
                group.addTask {
                    // While the wrong passwords are being verified.
                    try await Task.sleep(for: .milliseconds(300))
                    let response = try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"ann@example.com","password":"password-1"}"#)
                    return (true, response.status)
                }
                var wrong: [HTTPResponse.Status] = []
                var right: HTTPResponse.Status?
                for try await result in group {
                    if result.isRight { right = result.status } else { wrong.append(result.status) }
                }
                return (wrong, right)
            }
            #expect(wrong.filter { $0 == .unauthorized }.count == 3, "verified: \(wrong.filter { $0 == .unauthorized }.count) of 20")
            #expect(wrong.filter { $0 == .tooManyRequests }.count == 17)
            #expect(right == .tooManyRequests)
        }
    }

    @Test("a right password gives its slot back: it does not count toward the account's limit")
    func rightPasswordDoesNotCount() async throws {
        try await TestServer.run(configuration: Self.configuration(Self.limits)) { api in
            _ = try await api.signUp("ann@example.com")
            for _ in 0..<2 {
                #expect(try await Self.wrongPassword(api, "ann@example.com").status == .unauthorized)
            }
            for _ in 0..<3 {
                #expect(try await api.signIn("ann@example.com", password: "password-1").member.email == "ann@example.com")
            }
            #expect(try await Self.wrongPassword(api, "ann@example.com").status == .unauthorized)
            #expect(try await Self.wrongPassword(api, "ann@example.com").status == .tooManyRequests)
        }
    }

    /// Issue 26 (15): 500 anonymous sign-ins in 1.3 s each created a member and a session.
    @Test("anonymous sign-ins from one address beyond the limit get 429 rate_limited with Retry-After")
    func anonymousSignInsPerAddress() async throws {
        let clock = TestClock()
        var limits = Self.limits
        limits.anonymousSignInsPerAddress = 3
        try await TestServer.run(configuration: Self.configuration(limits), clock: clock) { api in
            for _ in 0..<3 {
                #expect(try await api.send(.post, "/v1/auth/anonymous").status == .created)
            }
            clock.advance(by: 100)
            let limited = try await api.send(.post, "/v1/auth/anonymous")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] == "500")
            // Sign-ups have their own count.
            _ = try await api.signUp("ann@example.com")
            clock.advance(by: 500)
            #expect(try await api.send(.post, "/v1/auth/anonymous").status == .created)
        }
    }

    @Test("with the limiter off (the default of ServerConfiguration and of --test-mode) nothing is limited")
    func off() async throws {
        #expect(TestServer.configuration().rateLimits == nil)
        try await TestServer.run(configuration: Self.configuration(nil)) { api in
            _ = try await api.signUp("ann@example.com")
            for _ in 0..<30 {
                #expect(try await Self.wrongPassword(api, "ann@example.com").status == .unauthorized)
            }
            #expect(try await api.signIn("ann@example.com", password: "password-1").member.email == "ann@example.com")
            for index in 0..<30 {
                _ = try await api.signUp("user\(index)@example.com")
                #expect(try await api.send(.post, "/v1/auth/anonymous").status == .created)
            }
        }
    }

    @Test("rate limits are bounded configuration values")
    func bounds() {
        for change: (inout RateLimits) -> Void in [
            { $0.window = .zero }, { $0.window = .seconds(Int.max) }, { $0.signInFailuresPerAccount = 0 },
            { $0.signInFailuresPerAddress = Int.max }, { $0.signUpsPerAddress = -1 }, { $0.anonymousSignInsPerAddress = 0 },
        ] {
            var limits = RateLimits.default
            change(&limits)
            #expect(throws: ConfigurationError.self) { try Self.configuration(limits).validate() }
        }
        #expect(throws: Never.self) { try Self.configuration(.default).validate() }
    }
}
