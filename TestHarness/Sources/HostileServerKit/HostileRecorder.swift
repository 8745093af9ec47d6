import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// Collects a mode's outputs as they happen, so a run the kit gives up on still has them.
final class HostileRecorder: Sendable {
    private let outputs = LockedValue<[HostileOutput]>([])
    private let shown = LockedValue<[HostileOutput]>([])
    private let events = LockedValue<[SessionEvent]>([])
    private let stored = LockedValue<Credentials?>(nil)
    private let later = LockedValue<(any Error)?>(nil)
    private let records = LockedValue<[SessionRecord]>([])
    private let keys = LockedValue<[DPoPKey]>([])

    /// What a call after the operation threw (the API call after a sign-in).
    var recordedLaterError: (any Error)? { later.withLock { $0 } }

    func laterError(_ error: any Error) {
        later.withLock { $0 = error }
    }

    var recordedOutputs: [HostileOutput] { outputs.withLock { $0 } }
    var recordedShown: [HostileOutput] { shown.withLock { $0 } }
    var recordedEvents: [SessionEvent] { events.withLock { $0 } }
    var storedBefore: Credentials? { stored.withLock { $0 } }
    var recordedRecords: [SessionRecord] { records.withLock { $0 } }
    /// Every DPoP key the run's sessions made, in order.
    var keysMade: [DPoPKey] { keys.withLock { $0 } }

    func keyMade(_ key: DPoPKey) {
        keys.withLock { $0.append(key) }
    }

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
        records.withLock { $0.append(record) }
        output("a session record", record.description)
    }

    func storedBefore(_ credentials: Credentials?) {
        stored.withLock { $0 = credentials }
    }
}
