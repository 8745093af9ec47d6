import TokenStore

/// Where one ``SessionService`` is in refreshing, as a state machine (rules 3 and 8 of the
/// session rules): each event is a `mutating` function that moves to the next phase and returns
/// what the caller must do; the caller only carries that out, after the lock is released.
/// (async-http-client's `HTTP1ConnectionStateMachine` has the same shape.)
///
/// - `idle`: a caller that needs a refresh starts one (`running`).
/// - `running`: callers join it; one that stops waiting leaves it running; a failure that may
///   pass, with a caller still waiting, makes it sleep before a retry (`waitingToRetry`).
/// - `waitingToRetry`: callers join it; once it has slept it runs again; when its last caller
///   stops waiting it is cancelled (`idle`).
/// - From either phase with a refresh, its end or a new session generation (sign-in,
///   sign-out) leads back to `idle`; events of an older refresh change nothing.
///
/// The phase holds the refresh's task so that callers join it (single flight) and so that a
/// sign-in or sign-out, or the last waiter of a refresh that only sleeps, can cancel it.
/// Events never suspend, block or call out.
enum RefreshPhase: Sendable, Equatable {
    /// A refresh run in a task of its own; its callers wait for its ``Renewal``.
    typealias RefreshTask = Task<Renewal, any Error>

    /// No refresh in flight: the next caller that needs one starts it.
    case idle
    /// A refresh in flight: reading the store, asking the server, saving. Callers join it; one
    /// that stops waiting does not stop it (a rotation is never interrupted half way).
    case running(Refresh)
    /// A refresh in flight that failed in a way that may pass and sleeps before asking the
    /// server again with the same refresh token (``RefreshRetryPolicy``). Callers join it; when
    /// the last one stops waiting it is cancelled, since nobody is left to retry for and no
    /// request is under way.
    case waitingToRetry(Refresh)

    /// The refresh in flight.
    struct Refresh: Sendable, Equatable {
        /// Its id, for its records and so that a late event of an older refresh changes nothing.
        let id: Int
        /// The refresh itself, run in a task of its own.
        let task: RefreshTask
        /// The callers waiting for it: the one that started it and those that joined, less
        /// those that stopped waiting (cancelled). Never below 0, and never 0 while waiting to
        /// retry.
        var waiters: Int
    }

    /// What a caller that needs a refresh does.
    enum JoinAction: Sendable, Equatable {
        /// It started refresh `id` (the task records its own start): wait for `task`.
        case started(id: Int, task: RefreshTask)
        /// It joined refresh `id`, in flight: record that, and wait for `task`.
        case joined(id: Int, task: RefreshTask)
    }

    /// What happens when a caller stops waiting (the caller itself always gets `CancellationError`).
    enum LeaveAction: Sendable, Equatable {
        /// Nothing more.
        case none
        /// Cancel `task`: it only slept before a retry, and nobody waits for it any more.
        case cancel(RefreshTask)
    }

    /// What a refresh whose attempt failed in a way that may pass does, when its retry policy
    /// allows another attempt.
    enum RetryAction: Sendable, Equatable {
        /// Sleep for the policy's delay, then report ``RefreshPhase/retryWaitEnded(_:)``.
        case sleep
        /// Ask the server again.
        case askAgain
        /// Throw the failure: nobody waits for the refresh any more, or it is no longer the
        /// one in flight (a sign-in or sign-out here moved on).
        case giveUp
    }

    /// The refresh in flight, if any.
    var inFlight: Refresh? {
        switch self {
        case .idle: nil
        case let .running(refresh), let .waitingToRetry(refresh): refresh
        }
    }

    // MARK: Events

    /// A caller needs a refresh: it joins the one in flight, or starts the one `start` makes,
    /// as refresh `newID`.
    mutating func callerNeedsRefresh(
        newID: Int, start: (_ id: Int) -> RefreshTask
    ) -> JoinAction {
        switch self {
        case .idle:
            let refresh = Refresh(id: newID, task: start(newID), waiters: 1)
            self = .running(refresh)
            return .started(id: refresh.id, task: refresh.task)
        case var .running(refresh):
            refresh.waiters += 1
            self = .running(refresh)
            return .joined(id: refresh.id, task: refresh.task)
        case var .waitingToRetry(refresh):
            refresh.waiters += 1
            self = .waitingToRetry(refresh)
            return .joined(id: refresh.id, task: refresh.task)
        }
    }

    /// A caller of refresh `id` stopped waiting (cancelled). A running refresh goes on (it may
    /// be rotating); one that only sleeps before a retry ends when its last caller leaves, and
    /// the next caller starts another.
    mutating func waiterLeft(_ id: Int) -> LeaveAction {
        switch self {
        case var .running(refresh) where refresh.id == id:
            refresh.waiters = max(refresh.waiters - 1, 0)
            self = .running(refresh)
            return .none
        case var .waitingToRetry(refresh) where refresh.id == id:
            refresh.waiters -= 1
            guard refresh.waiters <= 0 else {
                self = .waitingToRetry(refresh)
                return .none
            }
            self = .idle
            return .cancel(refresh.task)
        case .idle, .running, .waitingToRetry:
            return .none
        }
    }

    /// Refresh `id` failed in a way that may pass and its policy allows another attempt: it
    /// sleeps first, if a caller still waits for it.
    mutating func retryWanted(_ id: Int) -> RetryAction {
        switch self {
        case let .running(refresh) where refresh.id == id && refresh.waiters > 0,
             let .waitingToRetry(refresh) where refresh.id == id && refresh.waiters > 0:
            self = .waitingToRetry(refresh)
            return .sleep
        case .idle, .running, .waitingToRetry:
            return .giveUp
        }
    }

    /// Refresh `id` slept before a retry: it asks the server again, if a caller still waits.
    mutating func retryWaitEnded(_ id: Int) -> RetryAction {
        switch self {
        case let .running(refresh) where refresh.id == id, let .waitingToRetry(refresh) where refresh.id == id:
            self = .running(refresh)
            return refresh.waiters > 0 ? .askAgain : .giveUp
        case .idle, .running, .waitingToRetry:
            return .giveUp
        }
    }

    /// Refresh `id` finished: the next caller that needs one starts another.
    mutating func refreshFinished(_ id: Int) {
        if inFlight?.id == id { self = .idle }
    }

    /// A sign-in, sign-out or account deletion began: the refresh in flight, if any, is no
    /// longer the one callers join. Returns it, for the caller to cancel (it writes nothing:
    /// its generation moved on).
    mutating func newGeneration() -> RefreshTask? {
        defer { self = .idle }
        return inFlight?.task
    }
}
