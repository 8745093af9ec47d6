import Foundation

/// Runs `operation` to its end and returns its result, blocking the calling thread (libFuzzer
/// calls a target synchronously; the SDK's readers behind a transport are async).
///
/// The task starts on the calling thread (`Task.immediate`), so an operation that never
/// suspends (a reader behind a transport that answers at once) ends before this returns and
/// frees what it allocated on this thread: libFuzzer's leak check compares the mallocs and
/// frees of each run, and a task ending on another thread later would look like a leak.
public func runBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    if #available(macOS 26, *) {
        Task.immediate {
            box.set(await operation())
            done.signal()
        }
    } else {
        Task {
            box.set(await operation())
            done.signal()
        }
    }
    done.wait()
    return box.value!
}

/// One result handed from a task to a waiting thread.
///
/// `@unchecked Sendable` is safe: `value` is written once under `lock` and read under it only
/// after the semaphore that the writer signals afterwards has been waited on.
private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    func set(_ value: T) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: T? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
