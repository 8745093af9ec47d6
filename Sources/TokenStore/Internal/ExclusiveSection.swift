/// Runs bodies inside a store's exclusive section, letting nested sections of the same
/// task tree run directly instead of deadlocking.
///
/// A task that holds a section carries a ``Hold`` in a task-local list; child tasks
/// (`async let`, task groups, and `Task {}` created inside) inherit it. A hold is
/// marked ended when its section ends, so an unstructured task that outlives the
/// section does not keep believing it holds the lock: it waits like everyone else.
enum ExclusiveSection {
    /// One held section, identified by the store's lock key.
    final class Hold: Sendable {
        let key: String
        private let active = LockedValue(true)

        init(key: String) { self.key = key }

        var isActive: Bool { active.withLock { $0 } }
        func end() { active.withLock { $0 = false } }
    }

    @TaskLocal static var holds: [Hold] = []

    /// Whether the current task (tree) is inside a live section for `key`.
    static func isHeld(_ key: String) -> Bool {
        holds.contains { $0.key == key && $0.isActive }
    }

    /// Runs `body` in the section named `key`.
    /// - Parameters:
    ///   - key: Identifies the lock: the same key means the same section.
    ///   - acquire: Takes the lock and returns the function that releases it. Not called
    ///     when the current task already holds the section.
    ///   - body: The work to do while holding the section.
    static func run<T, Failure: Error>(
        key: String,
        acquire: () async throws(Failure) -> @Sendable () -> Void,
        body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        if isHeld(key) {
            return try await body()
        }
        let release = try await acquire()
        let hold = Hold(key: key)
        defer {
            hold.end()
            release()
        }
        let result: Result<T, Failure> = await $holds.withValue(holds + [hold]) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
