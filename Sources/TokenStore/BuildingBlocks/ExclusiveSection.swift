/// Runs bodies inside a store's exclusive section, letting nested sections of the same task
/// tree run directly instead of deadlocking: the re-entrancy half of
/// ``TokenStore/withExclusiveAccess(_:)``, for store authors.
///
/// A task that holds a section carries a `Hold` in a task-local list; child tasks
/// (`async let`, task groups, and `Task {}` created inside) inherit it. A hold is
/// marked ended when its section ends, so an unstructured task that outlives the
/// section does not keep believing it holds the lock: it waits like everyone else.
///
/// A store whose lock is a pair of functions (take, release) uses `run(key:acquire:body:)`;
/// one whose lock lives on a resource it must keep using inside the section (a database
/// connection holding an advisory lock) takes the lock itself, then marks the section held
/// with ``holding(key:resource:_:)``, and finds the resource again with ``resource(for:as:)``:
///
/// ```swift
/// if let connection = ExclusiveSection.resource(for: key, as: Connection.self) {
///     return try await body(connection)               // nested: already inside
/// }
/// try await processLock.lock(cancellable: true)       // this process's tasks, one at a time
/// defer { processLock.unlock() }
/// return try await pool.withConnection { connection in
///     try await connection.takeAdvisoryLock(key)      // the other processes and machines
///     defer { connection.releaseAdvisoryLock(key) }
///     return try await ExclusiveSection.holding(key: key, resource: connection) { try await body(connection) }
/// }
/// ```
public enum ExclusiveSection {
    /// One held section, identified by the store's lock key, with the resource that holds it.
    package final class Hold: Sendable {
        /// Identifies the section: the same key means the same section.
        package let key: String
        /// What holds the lock and is used inside the section (a connection), if anything.
        package let resource: (any Sendable)?
        private let active = LockedValue(true)

        init(key: String, resource: (any Sendable)?) {
            self.key = key
            self.resource = resource
        }

        /// Whether the section is still held (its body has not returned).
        package var isActive: Bool { active.withLock { $0 } }
        func end() { active.withLock { $0 = false } }
    }

    @TaskLocal static var holds: [Hold] = []

    /// Whether the current task (tree) is inside a live section for `key`.
    package static func isHeld(_ key: String) -> Bool {
        current(for: key) != nil
    }

    /// The live hold of the current task (tree) for `key`, the innermost if several.
    package static func current(for key: String) -> Hold? {
        holds.last { $0.key == key && $0.isActive }
    }

    /// The resource of the live hold for `key`, when the current task (tree) holds the section
    /// and its resource is a `Resource`.
    public static func resource<Resource: Sendable>(for key: String, as type: Resource.Type = Resource.self) -> Resource? {
        current(for: key)?.resource as? Resource
    }

    /// Runs `body` marked as holding the section `key`; call it once the lock is taken. Nested
    /// sections of the same task tree see the hold (`isHeld(_:)`, ``resource(for:as:)``) and
    /// run directly; the hold ends when `body` returns or throws, before the caller releases
    /// the lock.
    public static func holding<T, Failure: Error>(
        key: String, resource: (any Sendable)? = nil, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let hold = Hold(key: key, resource: resource)
        defer { hold.end() }
        let result: Result<T, Failure> = await $holds.withValue(holds + [hold]) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `body` in the section named `key`.
    /// - Parameters:
    ///   - key: Identifies the lock: the same key means the same section.
    ///   - acquire: Takes the lock and returns the function that releases it. Not called
    ///     when the current task already holds the section.
    ///   - body: The work to do while holding the section.
    package static func run<T, Failure: Error>(
        key: String,
        acquire: () async throws(Failure) -> @Sendable () -> Void,
        body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        if isHeld(key) {
            return try await body()
        }
        let release = try await acquire()
        defer { release() }
        return try await holding(key: key, body)
    }
}
