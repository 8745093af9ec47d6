import Foundation
import AppSDKTesting
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// Everything a mode's run produced: how the operation ended, what the SDK handed back, the
/// session before and after, and what went over the wire.
struct HostileOutcome: Sendable {
    /// Whether the operation ended before the kit gave up on it.
    var finished = false
    /// How long it took (until the kit gave up, if it did not end).
    var elapsed: Duration = .zero
    /// Whether it succeeded.
    var succeeded = false
    /// What it threw.
    var error: (any Error)?
    /// Every text the SDK handed back: the error's, the records', the events', the results'.
    var outputs: [HostileOutput] = []
    /// What the front end was given to show (user code, verification URIs, account id).
    var shownToFrontEnd: [HostileOutput] = []
    /// The stored credentials before the operation (a refresh's, a sign-out's).
    var storedBefore: Credentials?
    /// The stored credentials after it.
    var storedAfter: Credentials?
    /// The session events sent during the run.
    var events: [SessionEvent] = []
    /// The session's records (what the engine decided, refresh by refresh).
    var records: [SessionRecord] = []
    /// The DPoP keys the run's sessions made (a DPoP mode's: one).
    var keysMade: [DPoPKey] = []
    /// How long a device sign-in waited on its clock, in seconds.
    var waitedOnSignInClock: Double = 0
    /// The provider's requests.
    var exchanges: [HostileProvider.Exchange] = []
    /// The other origin's requests.
    var trapRequests: [LoopbackHTTPServer.Request] = []
    /// The requests the kit's transport refused to send.
    var refusals: [LoopbackGuardTransport.Refusal] = []
    /// The bytes the provider wrote.
    var bytesSent = 0

    /// How many times the engine asked the token endpoint for a refresh (its `serverAnswered` records).
    var refreshAttempts: Int {
        records.filter { record in
            if case .serverAnswered = record.event { return true }
            return false
        }.count
    }

    /// Every error in the thrown error's chain, outermost first.
    var errorChain: [any Error] {
        var chain: [any Error] = []
        var next = error
        while let current = next, chain.count < 8 {
            chain.append(current)
            next = Self.underlying(of: current)
        }
        return chain
    }

    /// The first `NetworkError` in the chain.
    var networkError: NetworkError? { errorChain.lazy.compactMap { $0 as? NetworkError }.first }

    /// The HTTP status the SDK read, if any error in the chain carries one.
    var statusCode: Int? { networkError?.statusCode }

    /// Whether the chain holds a `TransportError` of `kind`.
    func hasTransportError(_ kind: TransportError.Kind) -> Bool {
        errorChain.contains { ($0 as? TransportError)?.kind == kind }
    }

    static func underlying(of error: any Error) -> (any Error)? {
        switch error {
        case let error as SignInError: error.underlying
        case let error as NetworkError: error.underlying
        case let error as SessionError: error.underlying
        case let error as TransportError: error.underlying
        default: nil
        }
    }
}
