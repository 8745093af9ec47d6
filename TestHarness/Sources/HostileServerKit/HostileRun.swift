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
    let recorder = HostileRecorder()
    let store = InMemoryTokenStore()
    let signInClock = VirtualSignInClock()
    /// The tasks reading the sessions' events.
    let listeners = LockedValue<[Task<Void, Never>]>([])

    /// Starts the mode's provider; `transport` (the one under test) is wrapped in the guard.
    init(mode: HostileMode, transport: any HTTPTransport) throws {
        self.mode = mode
        provider = try HostileProvider(script: mode.script)
        self.transport = LoopbackGuardTransport(wrapping: transport, pretendedTLSPorts: mode.script.pretendsTLS ? [provider.port] : [])
    }

    /// Runs the operation, for at most `limit`, and gathers what it produced.
    func outcome(givingUpAfter limit: Duration) async -> HostileOutcome {
        let started = ContinuousClock.now
        let ended = await Deadline.run(within: limit) { await perform() }
        var outcome = HostileOutcome()
        outcome.elapsed = ContinuousClock.now - started
        outcome.finished = ended != nil
        outcome.succeeded = ended?.succeeded ?? false
        outcome.error = ended?.error ?? recorder.recordedLaterError
        await stopListening()
        if mode.overTheSizeLimit { _ = await provider.waitForReplies(timeout: 5) }
        outcome.storedBefore = recorder.storedBefore
        outcome.storedAfter = try? await store.load()
        outcome.outputs = recorder.recordedOutputs
        outcome.shownToFrontEnd = recorder.recordedShown
        outcome.events = recorder.recordedEvents
        outcome.records = recorder.recordedRecords
        outcome.keysMade = recorder.keysMade
        outcome.waitedOnSignInClock = signInClock.secondsWaited
        outcome.exchanges = provider.requests
        outcome.trapRequests = provider.trapRequests
        outcome.refusals = transport.refusals
        outcome.bytesSent = provider.bytesSent
        return outcome
    }

    /// Stops reading the sessions' events, once what was sent has been read.
    private func stopListening() async {
        try? await Task.sleep(for: .milliseconds(50))
        for task in listeners.withLock({ $0 }) { task.cancel() }
    }

    /// Runs the operation: whether it succeeded, and what it threw.
    private func perform() async -> (succeeded: Bool, error: (any Error)?) {
        do {
            let succeeded = try await operation()
            return (succeeded, nil)
        } catch {
            recorder.error(error)
            return (false, error)
        }
    }
}
