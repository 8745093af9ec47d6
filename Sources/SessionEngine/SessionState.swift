import Foundation
import TokenStore

/// All mutable state of one ``SessionService``, in one value behind one lock
/// (`SessionService.state`), changed only by the named transitions below. Each transition is
/// one atomic step, so "check the generation, then write" can never be split by a suspension
/// point. (Alamofire's `AuthenticationInterceptor` keeps its `MutableState` so, for the same
/// reason: a 401 from a request made with an older credential must not start a second refresh.)
///
/// - Generation: sign-in, sign-out and account deletion start a new one; a refresh remembers
///   the one it started in and writes nothing if it moved (rule 6 of the session rules).
/// - The refresh in flight: callers that need a refresh while one runs join it (rule 3).
/// - The window: unexplained refreshes are counted; past the limit, refreshing is an error (rule 7).
/// - The accepted access token and the refresh duration: the window's evidence and the margin's
///   measure (rules 7 and 1).
/// - Unsaved, overtaken and ended credentials: rotated credentials the store could not take,
///   rotated credentials a sign-out overtook, and the credentials of a session that ended here
///   but that the store could not remove (rules 4, 6 and 5).
///
/// Transitions never suspend, block or call out: they only read and write this value.
struct SessionState: Sendable {
    /// The refresh in flight and the id that lets it clear itself when it finishes.
    struct RefreshInFlight: Sendable {
        let id: Int
        let task: Task<Credentials, any Error>
        /// The callers waiting for it: the one that started it and those that joined, less
        /// those that stopped waiting (cancelled).
        var waiters = 1
        /// Whether it is waiting before trying the server again (``RefreshRetryPolicy``).
        var waitingToRetry = false
    }

    /// The current session generation.
    private(set) var generation = 0
    private var inFlight: RefreshInFlight?
    private var lastRefreshID = 0
    /// When the unexplained refreshes of the window's interval reached the server.
    private var refreshTimes: [Date] = []
    /// The last access token the server accepted (a call with it got an answer other than an
    /// authentication failure): the window's evidence that a refresh was explained.
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
    /// flight writes nothing. Returns that refresh, for the caller to cancel once the lock is
    /// released, and the unsaved credentials it forgets (a sign-out revokes those).
    @discardableResult
    mutating func startNewGeneration() -> (refreshToCancel: Task<Credentials, any Error>?, unsaved: UnsavedCredentials?) {
        generation += 1
        let refresh = inFlight?.task
        inFlight = nil
        defer { unsaved = nil }
        return (refresh, unsaved)
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

    /// The session ended inside a refresh started in `generation` (another process ended or
    /// replaced it). Returns `false`, changing nothing, when a sign-in or sign-out here already
    /// moved on.
    mutating func endGeneration(from generation: Int) -> Bool {
        guard isCurrent(generation) else { return false }
        self.generation += 1
        return true
    }

    // MARK: The refresh in flight

    /// The refresh in flight, or the one `start` makes (given its id and the generation it
    /// starts in) as the new one.
    mutating func joinOrStartRefresh(
        _ start: (_ id: Int, _ generation: Int) -> Task<Credentials, any Error>
    ) -> Task<Credentials, any Error> {
        if inFlight != nil {
            inFlight?.waiters += 1
            return inFlight!.task
        }
        lastRefreshID += 1
        let refresh = RefreshInFlight(id: lastRefreshID, task: start(lastRefreshID, generation))
        inFlight = refresh
        return refresh.task
    }

    /// The id of the refresh in flight, if any.
    var refreshInFlightID: Int? { inFlight?.id }

    /// A caller stopped waiting for the refresh `id` (cancelled). Returns that refresh, for the
    /// caller to cancel once the lock is released, when no caller waits for it any more and it
    /// is only waiting to retry: nobody is left to retry for, and no request is under way. It is
    /// no longer the one in flight then, so the next caller starts another.
    mutating func refreshWaiterLeft(_ id: Int) -> Task<Credentials, any Error>? {
        guard inFlight?.id == id else { return nil }
        inFlight?.waiters -= 1
        guard let refresh = inFlight, refresh.waiters <= 0, refresh.waitingToRetry else { return nil }
        inFlight = nil
        return refresh.task
    }

    /// The refresh `id` is about to wait before trying the server again. Returns whether it may:
    /// not when no caller waits for it any more (nor when it is no longer the one in flight).
    mutating func retryWaitBegins(_ id: Int) -> Bool {
        guard let refresh = inFlight, refresh.id == id, refresh.waiters > 0 else { return false }
        inFlight?.waitingToRetry = true
        return true
    }

    /// The refresh `id` waited to retry. Returns whether it may try the server again: a caller
    /// still waits for it.
    mutating func retryWaitEnded(_ id: Int) -> Bool {
        guard let refresh = inFlight, refresh.id == id else { return false }
        inFlight?.waitingToRetry = false
        return refresh.waiters > 0
    }

    /// The refresh `id` finished: the next caller that needs one starts another.
    mutating func refreshFinished(_ id: Int) {
        if inFlight?.id == id { inFlight = nil }
    }

    // MARK: The window and the margin

    /// Notes that the server accepted `accessToken`.
    mutating func noteAccepted(_ accessToken: String) {
        if acceptedAccessToken != accessToken { acceptedAccessToken = accessToken }
    }

    /// Admits a refresh of `stored` about to reach the server at `now`. It is explained when the
    /// token was `due` (expired or within the margin by its known expiry), or, expiry unknown,
    /// when the server had accepted it before refusing it; a token refused within a second of
    /// its arrival is never explained by its lifetime (a server that accepts each token once and
    /// then refuses it). An unexplained one is counted, and throws when `window` already holds as
    /// many as it allows. Returns how many unexplained refreshes the window holds with this one,
    /// or `nil` when this one is explained.
    @discardableResult
    mutating func admitRefresh(of stored: Credentials, due: Bool, at now: Date, window: RefreshWindow) throws(SessionError) -> Int? {
        let accepted = acceptedAccessToken == stored.accessToken.rawValue
        let young = stored.accessTokenIssuedAt.map { now.timeIntervalSince($0) < 1 } ?? false
        let unexplained = !due && (stored.accessTokenExpiresAt != nil || !accepted || young)
        refreshTimes.removeAll { now.timeIntervalSince($0) >= window.interval }
        guard unexplained else { return nil }
        guard refreshTimes.count < window.maximumRefreshes else {
            throw SessionError(.refreshLimitExceeded, detail:
                "the server refused \(refreshTimes.count) access tokens before they were due to expire within the last "
                + "\(Self.format(window.interval)) s; refreshing again in \(Self.format(window.interval - now.timeIntervalSince(refreshTimes[0]))) s at the earliest")
        }
        refreshTimes.append(now)
        return refreshTimes.count
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

    private static func format(_ seconds: TimeInterval) -> String {
        String(format: "%.0f", max(0, seconds.rounded(.up)))
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

    /// The refresh started in `generation` failed; `endsSession` when the failure ends the
    /// session (the server refused the refresh token), which then starts a new generation and
    /// forgets unsaved credentials. Returns `false`, changing nothing, when a sign-in or
    /// sign-out here already moved on (the refresh must then write nothing).
    mutating func refreshFailed(in generation: Int, endsSession: Bool) -> Bool {
        guard isCurrent(generation) else { return false }
        if endsSession {
            unsaved = nil
            self.generation += 1
        }
        return true
    }

    /// The server rotated for the refresh started in `generation`. Returns whether the new
    /// credentials may be saved; when a sign-in or sign-out moved on meanwhile they may not, and
    /// `rotation` (if the store held what it replaces) is kept for that sign-out to revoke.
    mutating func rotationArrived(_ rotation: UnsavedCredentials?, in generation: Int) -> Bool {
        guard isCurrent(generation) else {
            if let rotation { overtaken = rotation }
            return false
        }
        return true
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
