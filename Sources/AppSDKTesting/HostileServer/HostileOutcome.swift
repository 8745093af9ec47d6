import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// A text the SDK handed back during a mode, where it came from, and whether it may span
/// lines (a `dump`).
struct HostileOutput: Sendable {
    /// For example `the error's localizedDescription`.
    let source: String
    /// The text.
    let text: String
    /// Whether line breaks and tabs are the SDK's own (a `dump`), not the server's.
    var multiline = false
}

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

/// Collects a mode's outputs as they happen, so a run the kit gives up on still has them.
final class HostileRecorder: Sendable {
    private let outputs = LockedValue<[HostileOutput]>([])
    private let shown = LockedValue<[HostileOutput]>([])
    private let events = LockedValue<[SessionEvent]>([])
    private let stored = LockedValue<Credentials?>(nil)
    private let later = LockedValue<(any Error)?>(nil)

    /// What a call after the operation threw (the API call after a sign-in).
    var recordedLaterError: (any Error)? { later.withLock { $0 } }

    func laterError(_ error: any Error) {
        later.withLock { $0 = error }
    }

    var recordedOutputs: [HostileOutput] { outputs.withLock { $0 } }
    var recordedShown: [HostileOutput] { shown.withLock { $0 } }
    var recordedEvents: [SessionEvent] { events.withLock { $0 } }
    var storedBefore: Credentials? { stored.withLock { $0 } }

    func output(_ source: String, _ text: String, multiline: Bool = false) {
        outputs.withLock { $0.append(HostileOutput(source: source, text: text, multiline: multiline)) }
    }

    /// Every way a value can be printed: `description`, `String(reflecting:)`, `dump`.
    func printed(_ source: String, _ value: Any) {
        output("\(source)'s description", String(describing: value))
        output("String(reflecting:) of \(source)", String(reflecting: value))
        var dumped = ""
        dump(value, to: &dumped)
        output("dump of \(source)", dumped, multiline: true)
    }

    /// Every way an error can be printed, for it and each error under it.
    func error(_ error: any Error) {
        var next: (any Error)? = error
        var depth = 0
        while let current = next, depth < 8 {
            let name = depth == 0 ? "the error" : "the error \(depth) level\(depth == 1 ? "" : "s") under it"
            printed(name, current)
            output("\(name)'s localizedDescription", current.localizedDescription)
            if let localized = current as? any LocalizedError {
                for (part, text) in [("errorDescription", localized.errorDescription), ("failureReason", localized.failureReason),
                                     ("recoverySuggestion", localized.recoverySuggestion)] {
                    if let text { output("\(name)'s \(part)", text) }
                }
            }
            next = HostileOutcome.underlying(of: current)
            depth += 1
        }
    }

    func shownToFrontEnd(_ source: String, _ text: String) {
        shown.withLock { $0.append(HostileOutput(source: source, text: text)) }
    }

    func event(_ event: SessionEvent) {
        events.withLock { $0.append(event) }
        output("the event \(event)", String(describing: event))
    }

    func record(_ record: SessionRecord) {
        output("a session record", record.description)
    }

    func storedBefore(_ credentials: Credentials?) {
        stored.withLock { $0 = credentials }
    }
}
