#if canImport(FoundationNetworking)
import Foundation

/// The delegate queue of the sessions ``URLSessionTransport`` makes on Linux: it runs each
/// callback at once, on FoundationNetworking's own thread, instead of queueing it.
///
/// FoundationNetworking reads a response as fast as the network delivers and queues every
/// piece of it for the delegate, with no backpressure, and it handles a cancellation only
/// when its work queue gets to it: behind a flood, that queue of pieces held gigabytes
/// (measured against a loopback server writing without pause, with other requests on the
/// same session). Run inline, each piece is dropped (past the limit) before the next is
/// read, so nothing piles up. The transport's callbacks are short, take only its own locks
/// and never wait on FoundationNetworking (what they call on a task, `cancel` and the
/// completion handlers, is asynchronous there).
///
/// `@unchecked Sendable`: it adds no state to `OperationQueue`, which is thread-safe.
final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif
