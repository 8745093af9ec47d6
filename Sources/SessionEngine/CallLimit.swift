public import Foundation

/// How many calls a ``SessionService`` lets through at once, and how long a call may wait
/// for its turn.
///
/// A call takes its access token when its turn comes, not before: in a burst larger than the
/// transport can send at once (URLSession opens 6 connections per host on Linux by default,
/// AsyncHTTPClient 8), the calls beyond the limit wait here holding no token, instead of
/// queuing inside the transport with a token that may expire before their request goes out.
/// A burst then takes its turns however long it lasts against the tokens' lifetime, and still
/// makes one refresh per lifetime.
///
/// A call that waits longer than ``maximumWait`` fails with
/// ``SessionError/Kind/callLimitWaitExceeded``, which names the limit; a cancelled caller
/// stops waiting at once with `CancellationError`. A slot is held while the call's handler
/// runs, so a handler that does slow work other than its requests holds it that long, and a
/// handler must not call ``SessionService/request(handler:)`` of the same service: with every
/// slot held by such calls, they would wait for each other until ``maximumWait``.
///
/// ```swift
/// var configuration = SessionService.Configuration.oauth2(provider)
/// configuration.callLimit = CallLimit(maximumCalls: 16, maximumWait: 300)   // a load generator
/// configuration.callLimit = nil                                             // no limit
/// ```
public struct CallLimit: Sendable, Equatable {
    /// The most calls that run their handler at once. Default 64.
    public var maximumCalls: Int
    /// The longest a call waits for its turn, in seconds. Default 120.
    public var maximumWait: TimeInterval

    /// Creates a limit; every argument has the default described on its property. Values
    /// outside 1…1,000,000 calls and 0.001 s…1 day are brought within them.
    public init(maximumCalls: Int = 64, maximumWait: TimeInterval = 120) {
        self.maximumCalls = min(max(maximumCalls, 1), 1_000_000)
        self.maximumWait = maximumWait.isNaN ? 120 : min(max(maximumWait, 0.001), 86_400)
    }
}
