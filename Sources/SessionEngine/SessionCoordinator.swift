import Foundation
import TokenStore

/// All mutable refresh state of one ``SessionService`` in one place: the refresh in
/// flight, the session generation, and the refresh window. (As in Alamofire's
/// AuthenticationInterceptor, which also keeps this state in one place so that a 401 from
/// a request made with an older credential cannot start a second refresh.)
///
/// - Single flight: callers that need a refresh while one is running wait for it instead
///   of starting another.
/// - Generation: sign-in and sign-out bump it. A refresh remembers the generation it
///   started in and writes nothing if it changed (rule 6 of the session rules, docs/DESIGN.md §3).
/// - Window: unexplained refreshes (of tokens the server refused before they were due) are
///   counted; past the limit, refreshing is an error (rule 7).
actor SessionCoordinator {
    private var generation = 0
    private var inFlight: Task<Credentials, any Error>?
    private var refreshTimes: [Date] = []
    private let window: RefreshWindow

    init(window: RefreshWindow) {
        self.window = window
    }

    var currentGeneration: Int { generation }

    /// Joins the refresh in flight, or starts `perform` as the new one.
    ///
    /// The refresh runs in a task of its own, so one caller giving up cannot interrupt a
    /// rotation half way; a cancelled caller stops waiting at once with `CancellationError`.
    func refresh(_ perform: @escaping @Sendable (_ generation: Int) async throws -> Credentials) async throws -> Credentials {
        if let inFlight {
            return try await Self.result(of: inFlight)
        }
        let startedIn = generation
        let task = Task { try await perform(startedIn) }
        inFlight = task
        defer { if inFlight == task { inFlight = nil } }
        return try await Self.result(of: task)
    }

    /// The task's result, or `CancellationError` as soon as the waiting task is cancelled.
    private static func result(of task: Task<Credentials, any Error>) async throws -> Credentials {
        let waiter = LockedValue<CheckedContinuation<Credentials, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled {
                    waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
                    return
                }
                Task {
                    let result = await task.result
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    /// A new session begins or the current one ends here (sign-in, sign-out): a refresh in
    /// flight is cancelled, and whatever it gets back is not written.
    func startNewGeneration() {
        generation += 1
        inFlight?.cancel()
        inFlight = nil
    }

    /// The session ended inside a refresh (the server refused the refresh token, or another
    /// process ended it). Returns false when a sign-in or sign-out here already moved on.
    func endGeneration(from startedIn: Int) -> Bool {
        guard generation == startedIn else { return false }
        generation += 1
        return true
    }

    /// Admits a refresh about to reach the server. An unexplained one (see ``RefreshWindow``)
    /// is counted, and throws when the window already holds as many as it allows.
    func admitRefresh(at now: Date, unexplained: Bool) throws(SessionError) {
        refreshTimes.removeAll { now.timeIntervalSince($0) >= window.interval }
        guard unexplained else { return }
        guard refreshTimes.count < window.maximumRefreshes else {
            throw SessionError(.refreshLimitExceeded, detail:
                "the server refused \(refreshTimes.count) access tokens before they were due to expire within the last "
                + "\(Self.format(window.interval)) s; refreshing again in \(Self.format(window.interval - now.timeIntervalSince(refreshTimes[0]))) s at the earliest")
        }
        refreshTimes.append(now)
    }

    private static func format(_ seconds: TimeInterval) -> String {
        String(format: "%.0f", max(0, seconds.rounded(.up)))
    }
}
