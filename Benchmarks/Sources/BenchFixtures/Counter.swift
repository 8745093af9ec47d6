import Synchronization

/// A counter shared by tasks.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// The count before this call, counting it.
    func next() -> Int {
        value.add(1, ordering: .relaxed).oldValue
    }
}
