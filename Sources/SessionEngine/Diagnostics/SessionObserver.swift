/// Receives the engine's ``SessionRecord``s: install one in
/// ``SessionService/Configuration/observer`` to log, count or trace what the session does.
///
/// It is called synchronously, on the task that made the decision, often inside the store's
/// exclusive section: keep it quick (hand the record to a logger or a stream) and never call
/// the service from it. Without an observer nothing is built or formatted.
///
/// ```swift
/// configuration.observer = SessionObserver { record in
///     logger.debug("\(record)")
/// }
/// ```
public struct SessionObserver: Sendable {
    /// Called with each record.
    public let receive: @Sendable (SessionRecord) -> Void

    /// Creates an observer from a function.
    public init(_ receive: @escaping @Sendable (SessionRecord) -> Void) {
        self.receive = receive
    }
}
