import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of the sessions ``URLSessionTransport`` makes: it hands each callback to the
/// ``URLSessionExchange`` of its task, so the transport sees the response head, the body as
/// it arrives (to stop past the limit) and every redirect (to refuse one that would take a
/// credential to another origin).
///
/// A session's delegate rather than a task's: on Linux, FoundationNetworking gives a task's
/// delegate the redirects only, the body and the end go to the session's.
///
/// `@unchecked Sendable`: `exchanges` is read and written under `lock` only; the rest is
/// immutable.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var exchanges: [Int: URLSessionExchange] = [:]

    /// Routes the callbacks of `task` to `exchange` until the task completes.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> URLSessionExchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let exchange = exchange(of: task) else { return completionHandler(nil) }
        exchange.redirect(response, to: request, answer: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let allowed = exchange(of: dataTask)?.receive(response) ?? false
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(of: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(response: task.response, error: error)
    }
}
