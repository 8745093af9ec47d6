import Foundation
import NIOConcurrencyHelpers

/// The mutable state of test mode: counters and pending refresh faults.
public final class TestModeState: Sendable {
    /// A fault the next refresh calls suffer.
    public enum Fault: Sendable, Equatable {
        /// Answer 500 `internal` without touching the refresh token.
        case fail
        /// Wait this long, then handle the call normally.
        case hang(Duration)
        /// Close the connection without a response, without touching the refresh token.
        case drop
        /// Answer 503 with `Retry-After` (whole seconds) without touching the refresh token.
        case unavailable(retryAfter: Int)
        /// Handle the call normally (the refresh token rotates), then close the connection
        /// without sending the response: a response lost on the way back.
        case dropResponse

        /// Whether the fault applies after the call was handled rather than before.
        var appliesAfterHandling: Bool { self == .dropResponse }
    }

    /// A snapshot of the counters, as `GET /v1/_test/counters` returns it.
    public struct Counters: Codable, Sendable, Equatable {
        /// Calls of `POST /v1/auth/refresh`, faulted ones included.
        public var refreshCalls: Int
        /// Responses with status 401, on any route.
        public var unauthorizedResponses: Int
        /// Calls per route, keyed `"METHOD /v1/path/{param}"`.
        public var routes: [String: Int]
        /// Error responses per error code (`refresh_token_reused`, ...).
        public var errorCodes: [String: Int]
        /// DPoP nonce challenges answered (`use_dpop_nonce`, at token routes and resources).
        public var nonceChallenges: Int
        /// Successful refreshes of DPoP-bound session families, keyed by the key's thumbprint
        /// (`cnf.jkt`, public: a hash of the public key).
        public var refreshesByJKT: [String: Int]
    }

    private struct State {
        var counters = Counters(
            refreshCalls: 0, unauthorizedResponses: 0, routes: [:], errorCodes: [:], nonceChallenges: 0, refreshesByJKT: [:]
        )
        var fault: Fault?
        var faultsLeft = 0
    }

    private let state = NIOLockedValueBox(State())
    /// The generation counter behind `expire-access-tokens`.
    public let generations = AccessTokenGenerations()

    /// Creates empty state.
    public init() {}

    /// The counters now.
    public var counters: Counters { state.withLockedValue { $0.counters } }

    /// Counts one finished request.
    func record(route: String, status: Int) {
        state.withLockedValue { state in
            state.counters.routes[route, default: 0] += 1
            if status == 401 { state.counters.unauthorizedResponses += 1 }
        }
    }

    /// Counts one error response by its code.
    func record(errorCode: String) {
        state.withLockedValue { $0.counters.errorCodes[errorCode, default: 0] += 1 }
    }

    /// Counts one DPoP nonce challenge.
    func recordDPoPNonceChallenge() {
        state.withLockedValue { $0.counters.nonceChallenges += 1 }
    }

    /// Counts one successful refresh of a family bound to the key with thumbprint `jkt`.
    func recordRefresh(jkt: String) {
        state.withLockedValue { $0.counters.refreshesByJKT[jkt, default: 0] += 1 }
    }

    /// Counts one refresh call and returns the fault it suffers, if any.
    func beginRefresh() -> Fault? {
        state.withLockedValue { state in
            state.counters.refreshCalls += 1
            guard let fault = state.fault, state.faultsLeft > 0 else { return nil }
            state.faultsLeft -= 1
            if state.faultsLeft == 0 { state.fault = nil }
            return fault
        }
    }

    /// Makes the next `count` refresh calls suffer `fault`.
    func setFault(_ fault: Fault, count: Int) {
        state.withLockedValue { state in
            state.fault = count > 0 ? fault : nil
            state.faultsLeft = count
        }
    }

    /// Zeroes the counters and clears pending faults.
    func reset() {
        state.withLockedValue { state in
            state = State()
        }
    }
}
