extension KeychainTokenStore {
    /// Keeps the process running while it holds the store's exclusive section.
    ///
    /// iOS kills a suspended process that holds a file lock in an App Group container
    /// (`0xdead10cc`), and the section spans a token refresh over the network. With an activity,
    /// the store begins it before taking the lock and ends it after releasing the lock. When the
    /// system says time is up, the section stops its work: the refresh in flight is cancelled
    /// (the engine keeps the session and reports a transient failure, as for any refresh that
    /// got no answer), a save already under way finishes, the lock is released, and the
    /// section's caller gets what the work threw or, for a bare cancellation, the transient
    /// ``TokenStoreError/Kind/unavailable``.
    ///
    /// On Apple platforms use `expiringActivity(reason:)` (apps and extensions alike), or wrap
    /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)` yourself:
    ///
    /// ```swift
    /// let activity = KeychainTokenStore.BackgroundActivity { timeIsUp in
    ///     let task = UIApplication.shared.beginBackgroundTask(withName: "session", expirationHandler: timeIsUp)
    ///     return { UIApplication.shared.endBackgroundTask(task) }
    /// }
    /// ```
    public struct BackgroundActivity: Sendable {
        /// Begins the activity; calls `timeIsUp` (once, from any thread) when the system wants
        /// the process to stop, and returns the function that ends the activity.
        public let begin: @Sendable (_ timeIsUp: @escaping @Sendable () -> Void) -> @Sendable () -> Void

        /// Creates an activity from the function that begins it.
        /// - Parameter begin: Begins the activity, and returns the function that ends it (called
        ///   exactly once, after the section's lock is released). `timeIsUp` may be called at
        ///   any time before that, even before `begin` returns.
        public init(begin: @escaping @Sendable (_ timeIsUp: @escaping @Sendable () -> Void) -> @Sendable () -> Void) {
            self.begin = begin
        }
    }
}
