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

    #if canImport(FoundationNetworking)
    /// A 401 with a Basic challenge (`WWW-Authenticate: Basic realm="…"`, the answer RFC 6749
    /// §5.2 gives a bad client secret): the transport sends no credential of its own, so the
    /// 401 is the answer. Its head and body have already come through the other callbacks;
    /// the exchange completes with them, and the challenge is cancelled to end the task (the
    /// cancellation it then reports is dropped, the outcome being decided).
    ///
    /// Without this, FoundationNetworking answers `.performDefaultHandling` without a
    /// credential and never ends the task (swift-corelibs-foundation before #5457, Swift 6.3.1
    /// included): the request waited out its deadline and failed as a timeout. Answered from
    /// another thread: FoundationNetworking acts on the answer with a synchronous call to its
    /// work queue, where this runs (``InlineOperationQueue``).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        exchange(of: task)?.complete(response: challenge.failureResponse ?? task.response, error: nil)
        DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(response: task.response, error: error)
    }
}
