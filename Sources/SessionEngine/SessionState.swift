import Foundation
import TokenStore

/// All mutable state of one ``SessionService``, in one value behind one lock
/// (`SessionService.state`), changed only by the named events below. Each event is one atomic
/// step, so "check the generation, then write" can never be split by a suspension point; an
/// event that leaves something to do returns it as an action (`SessionState+Actions.swift`,
/// ``RefreshPhase``), which the caller carries out once the lock is released (the shape of
/// async-http-client's `HTTP1ConnectionStateMachine`). Alamofire's `AuthenticationInterceptor`
/// keeps its `MutableState` in one value for the same reason: a 401 from a request made with an
/// older credential must not start a second refresh.
///
/// - Generation: sign-in, sign-out and account deletion start a new one; a refresh remembers
///   the one it started in and writes nothing if it moved (rule 6 of the session rules).
/// - The refresh phase (``RefreshPhase``): callers that need a refresh while one runs join it
///   (rule 3); it may wait before a retry (rule 8).
/// - The refresh limit: unexplained refreshes are counted; past the limit, refreshing is an
///   error (rule 7).
/// - The accepted access token and the refresh duration: the refresh limit's evidence and the
///   margin's measure (rules 7 and 1).
/// - Unsaved, overtaken and ended credentials: rotated credentials the store could not take,
///   rotated credentials a sign-out overtook, and the credentials of a session that ended here
///   but that the store could not remove (rules 4, 6 and 5).
///
/// Events never suspend, block or call out: they only read and write this value.
struct SessionState: Sendable {
    /// The current session generation.
    private(set) var generation = 0
    /// Where the service is in refreshing.
    private(set) var refresh = RefreshPhase.idle
    /// The id of the last refresh started (each gets the next).
    private var lastRefreshID = 0
    /// When the unexplained refreshes of the refresh limit's interval reached the server.
    private var refreshTimes: [Date] = []
    /// The last access token the server accepted (a call with it got an answer other than an
    /// authentication failure): the refresh limit's evidence that a refresh was explained.
    private var acceptedAccessToken: String?
    /// How long a refresh takes here, smoothed (``RefreshTiming``); `nil` before the first.
    private(set) var refreshDuration: TimeInterval?
    /// The server's clock less this device's, smoothed (``ClockSkew``); `nil` before a token
    /// response with a sensible `Date` header.
    private(set) var clockOffset: TimeInterval?
    /// Rotated credentials the store could not save (a full disk, say): the server has already
    /// retired the stored refresh token, so they are used for every call while the store still
    /// holds what they replaced, and saved again on the next call until the store takes them.
    private(set) var unsaved: UnsavedCredentials?
    /// Rotated credentials a refresh got after a sign-out or sign-in had moved on (handed to no
    /// caller, by rule 6; saved only over the credentials they replaced): a sign-out waiting for
    /// the store revokes these, the live ones.
    private var overtaken: UnsavedCredentials?
    /// The stored credentials of a session that ended here but that the store could not remove.
    private var ended: EndedCredentials?

    // MARK: Generations

    /// A sign-in, sign-out or account deletion begins: a new generation, so that the refresh in
    /// flight writes nothing. Returns that refresh, for the caller to cancel, and the unsaved
    /// credentials it forgets (a sign-out revokes those).
    @discardableResult
    mutating func startNewGeneration() -> NewGeneration {
        generation += 1
        defer { unsaved = nil }
        return NewGeneration(refreshToCancel: refresh.newGeneration(), forgottenUnsaved: unsaved)
    }

    /// A session was started and saved: the store no longer holds an ended session's
    /// credentials, and no overtaken rotation is left to revoke.
    mutating func sessionStarted() {
        ended = nil
        overtaken = nil
    }

    /// Whether `generation` is still the current one.
    func isCurrent(_ generation: Int) -> Bool {
        self.generation == generation
    }

    /// A refresh started in `generation` found that another program ended or replaced the
    /// session: it ends here too (a new generation), unless a sign-in or sign-out here
    /// already moved on, which changes nothing.
    mutating func sessionEndedElsewhere(in generation: Int) -> SessionEndAction {
        guard isCurrent(generation) else { return .alreadyMovedOn }
        self.generation += 1
        return .endSession
    }

    // MARK: The refresh phase (RefreshPhase)

    /// A caller needs a refresh: it joins the one in flight, or starts the one `start` makes
    /// (given its id and the generation it starts in).
    mutating func callerNeedsRefresh(
        _ start: (_ id: Int, _ generation: Int) -> RefreshPhase.RefreshTask
    ) -> RefreshPhase.JoinAction {
        let generation = generation
        let action = refresh.callerNeedsRefresh(newID: lastRefreshID + 1) { id in start(id, generation) }
        if case let .started(id, _) = action { lastRefreshID = id }
        return action
    }

    /// A caller of refresh `id` stopped waiting (``RefreshPhase/waiterLeft(_:)``).
    mutating func refreshWaiterLeft(_ id: Int) -> RefreshPhase.LeaveAction {
        refresh.waiterLeft(id)
    }

    /// Refresh `id` may try again after a failure (``RefreshPhase/retryWanted(_:)``).
    mutating func retryWanted(_ id: Int) -> RefreshPhase.RetryAction {
        refresh.retryWanted(id)
    }

    /// Refresh `id` slept before a retry (``RefreshPhase/retryWaitEnded(_:)``).
    mutating func retryWaitEnded(_ id: Int) -> RefreshPhase.RetryAction {
        refresh.retryWaitEnded(id)
    }

    /// Refresh `id` finished (``RefreshPhase/refreshFinished(_:)``).
    mutating func refreshFinished(_ id: Int) {
        refresh.refreshFinished(id)
    }

    // MARK: The refresh limit and the margin

    /// Notes that the server accepted `accessToken`.
    mutating func noteAccepted(_ accessToken: String) {
        if acceptedAccessToken != accessToken { acceptedAccessToken = accessToken }
    }

    /// Admits a refresh of `stored` about to reach the server at `now`. It is explained when the
    /// token was `due` (expired or within the margin by its known expiry), or, expiry unknown,
    /// when the server had accepted it before refusing it; a token refused within a second of
    /// its arrival is never explained by its lifetime (a server that accepts each token once and
    /// then refuses it). An unexplained one is counted, or refused when `limit`'s interval
    /// already holds as many as it allows.
    mutating func admitRefresh(of stored: Credentials, due: Bool, at now: Date, limit: RefreshLimit) -> Admission {
        let accepted = acceptedAccessToken == stored.accessToken.rawValue
        let young = stored.accessTokenIssuedAt.map { now.timeIntervalSince($0) < 1 } ?? false
        let unexplained = !due && (stored.accessTokenExpiresAt != nil || !accepted || young)
        refreshTimes.removeAll { now.timeIntervalSince($0) >= limit.interval }
        guard unexplained else { return .explained }
        guard refreshTimes.count < limit.maximumRefreshes else {
            // A limit of 0 refuses every unexplained refresh, with no time to count from.
            let oldest = refreshTimes.first ?? now
            return .refused(count: refreshTimes.count, retryIn: limit.interval - now.timeIntervalSince(oldest))
        }
        refreshTimes.append(now)
        return .counted(count: refreshTimes.count, limit: limit.maximumRefreshes)
    }

    /// Gives back the admission counted at `countedAt` (``admitRefresh(of:due:at:limit:)``): the
    /// refresh ended on a DPoP nonce challenge, which never counts.
    mutating func refundAdmission(countedAt: Date) {
        if let index = refreshTimes.lastIndex(of: countedAt) { refreshTimes.remove(at: index) }
    }

    /// Adds a measured refresh to the smoothed refresh duration.
    mutating func noteRefreshDuration(_ measured: TimeInterval) {
        refreshDuration = RefreshTiming.smoothedDuration(refreshDuration, adding: measured)
    }

    /// Adds an offset measured from a token response's `Date` header (``ClockSkew``); returns
    /// the smoothed offset.
    mutating func noteClockOffset(_ measured: TimeInterval?) -> TimeInterval? {
        if let measured { clockOffset = ClockSkew.smoothed(clockOffset, adding: measured) }
        return clockOffset
    }

    // MARK: Refresh outcomes

    /// The credentials to refresh from, when the store holds `fromStore`: unsaved rotated ones
    /// of `generation` that replace exactly those (the stored refresh token is already
    /// retired), else `nil`. Unsaved credentials that do not fit are dropped: the store moved on.
    mutating func unsavedRenewal(over fromStore: Credentials?, in generation: Int) -> Credentials? {
        guard let entry = unsaved else { return nil }
        if entry.generation == generation, let fromStore, fromStore.identifyingToken == entry.replaced.identifyingToken {
            return entry.renewed
        }
        unsaved = nil
        return nil
    }

    /// The refresh started in `generation` failed; `reason` when the failure ends the session
    /// (the server refused the refresh token), which then starts a new generation and forgets
    /// unsaved credentials. Changes nothing when a sign-in or sign-out here already moved on
    /// (the refresh must then write nothing).
    mutating func refreshFailed(in generation: Int, endingSession reason: SignOutReason?) -> FailureAction {
        guard isCurrent(generation) else { return .alreadyMovedOn }
        guard let reason else { return .keepSession }
        unsaved = nil
        self.generation += 1
        return .endSession(reason)
    }

    /// The server rotated for the refresh started in `generation`. The new credentials are
    /// saved, unless a sign-in or sign-out moved on meanwhile: then `rotation` (if the store
    /// held what it replaces) is kept for that sign-out to revoke.
    mutating func rotationArrived(_ rotation: UnsavedCredentials?, in generation: Int) -> RotationAction {
        guard isCurrent(generation) else {
            if let rotation { overtaken = rotation }
            return .overtaken
        }
        return .save
    }

    /// The store could not save `rotation`: keeps it in memory, unless a sign-in or sign-out
    /// moved on meanwhile.
    mutating func keepUnsaved(_ rotation: UnsavedCredentials) {
        if isCurrent(rotation.generation) { unsaved = rotation }
    }

    /// A rotation was saved: no unsaved credentials are left.
    mutating func rotationSaved() {
        unsaved = nil
    }

    /// The store took `entry` (or moved on past it): forgets it, unless other unsaved
    /// credentials replaced it meanwhile.
    mutating func forgetUnsaved(_ entry: UnsavedCredentials) {
        if unsaved == entry { unsaved = nil }
    }

    /// The rotation a sign-out overtook, if any, taken once.
    mutating func takeOvertaken() -> UnsavedCredentials? {
        defer { overtaken = nil }
        return overtaken
    }

    // MARK: Ended sessions

    /// The ended session `credentials` belong to, if they are the stored credentials of a
    /// session that ended here and could not be removed.
    func endedSession(of credentials: Credentials) -> EndedCredentials? {
        ended.flatMap { $0.matches(credentials) ? $0 : nil }
    }

    /// Remembers `ended` as the credentials of a session that ended but that the store could not remove.
    mutating func rememberEnded(_ ended: EndedCredentials) {
        self.ended = ended
    }

    /// Forgets `ended` once the store no longer holds its credentials, unless another ended
    /// session replaced it meanwhile.
    mutating func forgetEnded(_ ended: EndedCredentials) {
        if self.ended == ended { self.ended = nil }
    }
}
