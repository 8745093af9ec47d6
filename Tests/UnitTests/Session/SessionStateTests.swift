import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// `SessionState`'s decisions as tables: each row is a state, an event, the state after it
/// and the action the caller carries out. No store, clock or server: times are fixed dates,
/// the refresh in flight a placeholder task. The refresh phase's own table is
/// `RefreshPhaseTests`.
@Suite("The engine's state: each event checks the generation and decides in one step")
struct SessionStateTests {
    static let stored = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1", accessTokenExpiresAt: nil, accountID: "kim")
    static let renewed = Credentials(accessToken: AccessToken("a2"), refreshToken: "r2", accessTokenExpiresAt: nil, accountID: "kim")
    static let other = Credentials(accessToken: AccessToken("a9"), refreshToken: "r9", accessTokenExpiresAt: nil, accountID: "kim")
    /// The refresh in flight in the states that have one.
    static let refresh = RefreshPhase.RefreshTask { throw CancellationError() }
    /// Rotated credentials of generation 0, the first.
    static let rotation = UnsavedCredentials(replaced: stored, renewed: renewed, generation: 0)

    /// The state an event meets.
    enum Given: String, Sendable, CustomStringConvertible {
        case fresh = "a fresh state"
        case refreshRunning = "a refresh running"
        case refreshWaitingToRetry = "a refresh waiting to retry"
        case unsavedKept = "unsaved rotated credentials kept"
        case refreshRunningAndUnsavedKept = "a refresh running and unsaved credentials kept"

        var description: String { rawValue }

        var state: SessionState {
            var state = SessionState()
            if [.refreshRunning, .refreshWaitingToRetry, .refreshRunningAndUnsavedKept].contains(self) {
                _ = state.callerNeedsRefresh { _, _ in SessionStateTests.refresh }
            }
            if self == .refreshWaitingToRetry { _ = state.retryWanted(1) }
            if [.unsavedKept, .refreshRunningAndUnsavedKept].contains(self) { state.keepUnsaved(SessionStateTests.rotation) }
            return state
        }
    }

    // MARK: A new generation

    struct NewGenerationRow: Sendable, CustomTestStringConvertible {
        let given: Given
        let action: SessionState.NewGeneration
        var testDescription: String { "\(given): a sign-in or sign-out begins" }
    }

    static let newGenerationTable: [NewGenerationRow] = [
        NewGenerationRow(given: .fresh, action: .init(refreshToCancel: nil, forgottenUnsaved: nil)),
        NewGenerationRow(given: .refreshRunning, action: .init(refreshToCancel: refresh, forgottenUnsaved: nil)),
        NewGenerationRow(given: .refreshWaitingToRetry, action: .init(refreshToCancel: refresh, forgottenUnsaved: nil)),
        NewGenerationRow(given: .unsavedKept, action: .init(refreshToCancel: nil, forgottenUnsaved: rotation)),
        NewGenerationRow(given: .refreshRunningAndUnsavedKept, action: .init(refreshToCancel: refresh, forgottenUnsaved: rotation)),
    ]

    @Test("a new generation: the refresh in flight is cancelled and callers no longer join it; unsaved credentials are handed over (a sign-out revokes them) and forgotten",
          arguments: newGenerationTable)
    func newGeneration(_ row: NewGenerationRow) {
        var state = row.given.state
        #expect(state.startNewGeneration() == row.action)
        #expect(state.generation == 1)
        #expect(state.refresh == .idle)
        #expect(state.unsaved == nil)
    }

    // MARK: Events of a refresh, in the generation it started in or after a sign-in or sign-out

    /// When the refresh started: in the current generation, or before a sign-in or sign-out.
    enum StartedIn: String, Sendable, CustomStringConvertible {
        case current = "a current refresh"
        case previous = "a refresh a sign-out overtook"
        var description: String { rawValue }
    }

    /// A state whose current generation is 1 and holds unsaved credentials of it; `startedIn`
    /// is 1 or 0.
    static func overtakable(_ startedIn: StartedIn) -> (state: SessionState, generation: Int) {
        var state = SessionState()
        state.startNewGeneration()
        state.keepUnsaved(UnsavedCredentials(replaced: stored, renewed: renewed, generation: 1))
        return (state, startedIn == .current ? 1 : 0)
    }

    struct EndedElsewhereRow: Sendable, CustomTestStringConvertible {
        let startedIn: StartedIn
        let action: SessionState.SessionEndAction
        let generationAfter: Int
        var testDescription: String { "\(startedIn) finds the session ended elsewhere → \(action)" }
    }

    static let endedElsewhereTable: [EndedElsewhereRow] = [
        EndedElsewhereRow(startedIn: .current, action: .endSession, generationAfter: 2),
        EndedElsewhereRow(startedIn: .previous, action: .alreadyMovedOn, generationAfter: 1),
    ]

    @Test("the session ended elsewhere: it ends here too, unless a sign-in or sign-out here already moved on", arguments: endedElsewhereTable)
    func sessionEndedElsewhere(_ row: EndedElsewhereRow) {
        var (state, generation) = Self.overtakable(row.startedIn)
        #expect(state.sessionEndedElsewhere(in: generation) == row.action)
        #expect(state.generation == row.generationAfter)
    }

    struct FailureRow: Sendable, CustomTestStringConvertible {
        let startedIn: StartedIn
        let reason: SignOutReason?
        let action: SessionState.FailureAction
        let generationAfter: Int
        let unsavedKept: Bool
        var testDescription: String { "\(startedIn) fails (\(reason.map { "\($0)" } ?? "may pass")) → \(action)" }
    }

    static let failureTable: [FailureRow] = [
        FailureRow(startedIn: .current, reason: nil, action: .keepSession, generationAfter: 1, unsavedKept: true),
        FailureRow(startedIn: .current, reason: .refreshTokenRejected(nil), action: .endSession(.refreshTokenRejected(nil)),
                   generationAfter: 2, unsavedKept: false),
        FailureRow(startedIn: .current, reason: .refreshRefused(status: 403, code: nil), action: .endSession(.refreshRefused(status: 403, code: nil)),
                   generationAfter: 2, unsavedKept: false),
        FailureRow(startedIn: .previous, reason: nil, action: .alreadyMovedOn, generationAfter: 1, unsavedKept: true),
        FailureRow(startedIn: .previous, reason: .refreshTokenRejected(nil), action: .alreadyMovedOn, generationAfter: 1, unsavedKept: true),
    ]

    @Test("a refresh failed: a failure that may pass keeps the session, a refused refresh token ends it, and a refresh a sign-in or sign-out overtook writes nothing",
          arguments: failureTable)
    func refreshFailed(_ row: FailureRow) {
        var (state, generation) = Self.overtakable(row.startedIn)
        #expect(state.refreshFailed(in: generation, endingSession: row.reason) == row.action)
        #expect(state.generation == row.generationAfter)
        #expect((state.unsaved != nil) == row.unsavedKept)
    }

    struct RotationRow: Sendable, CustomTestStringConvertible {
        let startedIn: StartedIn
        let rotation: UnsavedCredentials?
        let action: SessionState.RotationAction
        let handedToTheSignOut: UnsavedCredentials?
        var testDescription: String { "\(startedIn) got rotated tokens (\(rotation == nil ? "the store held none" : "over stored ones")) → \(action)" }
    }

    static let rotationTable: [RotationRow] = [
        RotationRow(startedIn: .current, rotation: rotation, action: .save, handedToTheSignOut: nil),
        RotationRow(startedIn: .current, rotation: nil, action: .save, handedToTheSignOut: nil),
        RotationRow(startedIn: .previous, rotation: rotation, action: .overtaken, handedToTheSignOut: rotation),
        RotationRow(startedIn: .previous, rotation: nil, action: .overtaken, handedToTheSignOut: nil),
    ]

    @Test("rotated tokens arrived: saved, unless a sign-in or sign-out moved on; then they are handed, once, to that sign-out to revoke",
          arguments: rotationTable)
    func rotationArrived(_ row: RotationRow) {
        var (state, generation) = Self.overtakable(row.startedIn)
        #expect(state.rotationArrived(row.rotation, in: generation) == row.action)
        #expect(state.generation == 1)
        #expect(state.takeOvertaken() == row.handedToTheSignOut)
        #expect(state.takeOvertaken() == nil)
    }

    // MARK: The refresh limit

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    struct AdmissionRow: Sendable, CustomTestStringConvertible {
        let name: String
        /// The token refused: when it expires (`nil`: unknown) and when it was issued, in
        /// seconds from `t0`.
        let expiresIn: TimeInterval?
        let issuedAt: TimeInterval
        let due: Bool
        let accepted: Bool
        /// Earlier unexplained refreshes, in seconds from `t0`.
        let counted: [TimeInterval]
        let now: TimeInterval
        let limit: RefreshLimit
        let admission: SessionState.Admission
        var testDescription: String { "\(name) → \(admission)" }
    }

    static let admissionTable: [AdmissionRow] = [
        AdmissionRow(name: "a due token", expiresIn: 60, issuedAt: 0, due: true, accepted: false, counted: [],
                     now: 55, limit: RefreshLimit(), admission: .explained),
        AdmissionRow(name: "a due token with the limit reached", expiresIn: 60, issuedAt: 0, due: true, accepted: false,
                     counted: [50, 51, 52, 53, 54], now: 55, limit: RefreshLimit(), admission: .explained),
        AdmissionRow(name: "a token refused before its known expiry", expiresIn: 60, issuedAt: 0, due: false, accepted: true, counted: [],
                     now: 5, limit: RefreshLimit(), admission: .counted(count: 1, limit: 5)),
        AdmissionRow(name: "expiry unknown, accepted before", expiresIn: nil, issuedAt: 0, due: false, accepted: true, counted: [],
                     now: 10, limit: RefreshLimit(), admission: .explained),
        AdmissionRow(name: "expiry unknown, never accepted", expiresIn: nil, issuedAt: 0, due: false, accepted: false, counted: [],
                     now: 10, limit: RefreshLimit(), admission: .counted(count: 1, limit: 5)),
        AdmissionRow(name: "expiry unknown, accepted but refused within a second of its arrival", expiresIn: nil, issuedAt: 0, due: false,
                     accepted: true, counted: [], now: 0.5, limit: RefreshLimit(), admission: .counted(count: 1, limit: 5)),
        AdmissionRow(name: "the fifth unexplained refresh in 30 s", expiresIn: 60, issuedAt: 0, due: false, accepted: true,
                     counted: [1, 2, 3, 4], now: 5, limit: RefreshLimit(), admission: .counted(count: 5, limit: 5)),
        AdmissionRow(name: "the sixth unexplained refresh in 30 s", expiresIn: 60, issuedAt: 0, due: false, accepted: true,
                     counted: [1, 2, 3, 4, 5], now: 6, limit: RefreshLimit(), admission: .refused(count: 5, retryIn: 25)),
        AdmissionRow(name: "the sixth, once the first has left the interval", expiresIn: 60, issuedAt: 0, due: false, accepted: true,
                     counted: [1, 2, 3, 4, 5], now: 31, limit: RefreshLimit(), admission: .counted(count: 5, limit: 5)),
        AdmissionRow(name: "a limit of 3 in 60 s", expiresIn: 60, issuedAt: 0, due: false, accepted: true,
                     counted: [1, 2, 3], now: 10, limit: RefreshLimit(maximumRefreshes: 3, interval: 60),
                     admission: .refused(count: 3, retryIn: 51)),
        AdmissionRow(name: "a limit of 0", expiresIn: 60, issuedAt: 0, due: false, accepted: true, counted: [],
                     now: 10, limit: RefreshLimit(maximumRefreshes: 0, interval: 30), admission: .refused(count: 0, retryIn: 30)),
    ]

    @Test("the refresh limit: a refresh the expiry explains is never counted; an unexplained one is counted, or refused once the interval holds as many as the limit allows",
          arguments: admissionTable)
    func admission(_ row: AdmissionRow) {
        var state = SessionState()
        let token = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1",
                                accessTokenExpiresAt: row.expiresIn.map { Self.t0.addingTimeInterval($0) }, accountID: "kim",
                                accessTokenIssuedAt: Self.t0.addingTimeInterval(row.issuedAt))
        let unexplained = Credentials(accessToken: AccessToken("z"), refreshToken: "r", accessTokenExpiresAt: Self.t0, accountID: "kim")
        for time in row.counted {
            _ = state.admitRefresh(of: unexplained, due: false, at: Self.t0.addingTimeInterval(time), limit: row.limit)
        }
        if row.accepted { state.noteAccepted(token.accessToken.rawValue) }
        #expect(state.admitRefresh(of: token, due: row.due, at: Self.t0.addingTimeInterval(row.now), limit: row.limit) == row.admission)
    }

    @Test("a refused refresh says how many tokens the server refused, in how long, and when refreshing resumes")
    func exceededError() {
        let error = RefreshLimit().exceeded(count: 5, retryIn: 24.2)
        #expect(error.kind == .refreshLimitExceeded)
        #expect(error.description == "stopped refreshing to avoid a loop: the server refused 5 access tokens before they were due to "
                + "expire within the last 30 s; refreshing again in 25 s at the earliest")
    }

    // MARK: The refresh phase, through the state

    @Test("callers that need a refresh get refresh 1, started in the current generation, then join it; after it finishes, the next is refresh 2")
    func refreshIDs() {
        var state = SessionState()
        state.startNewGeneration()
        var started: [(id: Int, generation: Int)] = []
        func start(_ id: Int, _ generation: Int) -> RefreshPhase.RefreshTask {
            started.append((id, generation))
            return Self.refresh
        }
        #expect(state.callerNeedsRefresh(start) == .started(id: 1, task: Self.refresh))
        #expect(state.callerNeedsRefresh(start) == .joined(id: 1, task: Self.refresh))
        #expect(state.refreshWaiterLeft(1) == .none)
        #expect(state.retryWanted(1) == .sleep)
        #expect(state.retryWaitEnded(1) == .askAgain)
        state.refreshFinished(1)
        #expect(state.callerNeedsRefresh(start) == .started(id: 2, task: Self.refresh))
        #expect(started.map(\.id) == [1, 2])
        #expect(started.map(\.generation) == [1, 1])
    }

    // MARK: Unsaved, overtaken and ended credentials

    struct UnsavedRow: Sendable, CustomTestStringConvertible {
        let name: String
        let event: @Sendable (inout SessionState) -> Credentials?
        let result: Credentials?
        let unsavedAfter: UnsavedCredentials?
        var testDescription: String { name }
    }

    static let unsavedTable: [UnsavedRow] = [
        UnsavedRow(name: "kept, in the current generation", event: { $0.keepUnsaved(rotation); return nil },
                   result: nil, unsavedAfter: rotation),
        UnsavedRow(name: "not kept once a sign-out started a new generation",
                   event: { $0.startNewGeneration(); $0.keepUnsaved(rotation); return nil }, result: nil, unsavedAfter: nil),
        UnsavedRow(name: "forgotten once a rotation was saved", event: { $0.keepUnsaved(rotation); $0.rotationSaved(); return nil },
                   result: nil, unsavedAfter: nil),
        UnsavedRow(name: "forgotten once the store took them", event: { $0.keepUnsaved(rotation); $0.forgetUnsaved(rotation); return nil },
                   result: nil, unsavedAfter: nil),
        UnsavedRow(name: "not forgotten when others replaced them",
                   event: { $0.keepUnsaved(rotation); $0.forgetUnsaved(UnsavedCredentials(replaced: other, renewed: renewed, generation: 0)); return nil },
                   result: nil, unsavedAfter: rotation),
        UnsavedRow(name: "refreshed from, while the store holds what they replaced",
                   event: { $0.keepUnsaved(rotation); return $0.unsavedRenewal(over: stored, in: 0) }, result: renewed, unsavedAfter: rotation),
        UnsavedRow(name: "dropped when the store moved on",
                   event: { $0.keepUnsaved(rotation); return $0.unsavedRenewal(over: other, in: 0) }, result: nil, unsavedAfter: nil),
        UnsavedRow(name: "dropped when the store is empty",
                   event: { $0.keepUnsaved(rotation); return $0.unsavedRenewal(over: nil, in: 0) }, result: nil, unsavedAfter: nil),
        UnsavedRow(name: "dropped for a refresh of another generation",
                   event: { $0.keepUnsaved(rotation); return $0.unsavedRenewal(over: stored, in: 1) }, result: nil, unsavedAfter: nil),
    ]

    @Test("unsaved rotated credentials", arguments: unsavedTable)
    func unsaved(_ row: UnsavedRow) {
        var state = SessionState()
        #expect(row.event(&state) == row.result)
        #expect(state.unsaved == row.unsavedAfter)
    }

    @Test("the credentials of a session that ended here are remembered until the store no longer holds them, or a session starts")
    func endedCredentials() {
        var state = SessionState()
        let ended = EndedCredentials(Self.stored, reason: .refreshTokenRejected(nil))
        state.rememberEnded(ended)
        #expect(state.endedSession(of: Self.stored) == ended)
        #expect(state.endedSession(of: Self.other) == nil)
        state.forgetEnded(EndedCredentials(Self.other, reason: .refreshTokenRejected(nil)))
        #expect(state.endedSession(of: Self.stored) == ended)
        state.forgetEnded(ended)
        #expect(state.endedSession(of: Self.stored) == nil)
        state.rememberEnded(ended)
        _ = state.rotationArrived(Self.rotation, in: -1)
        state.sessionStarted()
        #expect(state.endedSession(of: Self.stored) == nil)
        #expect(state.takeOvertaken() == nil)
    }
}
