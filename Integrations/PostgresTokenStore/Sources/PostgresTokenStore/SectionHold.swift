import PostgresNIO

/// A held exclusive section: its key and the connection that holds the advisory lock.
///
/// The task that entered the section carries the hold in a task-local list, inherited by its
/// child tasks (`async let`, task groups, `Task {}` made inside), exactly like the file stores'
/// sections: a nested ``PostgresTokenStore/withExclusiveAccess(_:)`` for the same key runs
/// directly, and `load`, `save` and `clear` inside use this connection. The hold is ended
/// when the section ends, so an unstructured task that outlives it waits like everyone else.
final class SectionHold: Sendable {
    /// Identifies the section: database, table and account.
    let key: String
    /// The dedicated connection holding the advisory lock.
    let connection: PostgresConnection
    private let active = Locked(true)

    init(key: String, connection: PostgresConnection) {
        self.key = key
        self.connection = connection
    }

    var isActive: Bool { active.withLock { $0 } }
    func end() { active.withLock { $0 = false } }

    @TaskLocal static var holds: [SectionHold] = []

    /// The live hold for `key` of the current task (tree), if any.
    static func current(for key: String) -> SectionHold? {
        holds.last { $0.key == key && $0.isActive }
    }
}
