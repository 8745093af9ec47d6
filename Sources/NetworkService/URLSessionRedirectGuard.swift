import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The task delegate of a request that ``URLSessionTransport`` sends through a session of
/// yours: it judges each redirect by ``RedirectPolicy``, through the request's
/// ``URLSessionExchange``, and implements nothing else, so every other callback still goes
/// to your session's delegate (on Linux it also sees authentication challenges, and hands
/// them on).
///
/// `@unchecked Sendable`: its only stored property is a constant reference to a `Sendable` value.
final class URLSessionRedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let exchange: URLSessionExchange

    init(_ exchange: URLSessionExchange) {
        self.exchange = exchange
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        exchange.redirect(response, to: request, answer: completionHandler)
    }

    #if canImport(FoundationNetworking)
    /// A 401 with a Basic challenge. Your session's delegate answers it, as without this
    /// guard, but an answer FoundationNetworking would never act on is replaced: default
    /// handling with no credential to propose, after which it never ends the task
    /// (swift-corelibs-foundation before #5457, Swift 6.3.1 included; the request waited out
    /// its deadline). The request then ends at once with the 401's status and header fields,
    /// without its body: FoundationNetworking hands the body to the completion handler only,
    /// and a task ended by cancelling the challenge gets none. Answers go from another
    /// thread: FoundationNetworking acts on them with synchronous calls to its work queue.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let exchange = exchange
        let response = challenge.failureResponse ?? task.response
        let proposesCredential = challenge.proposedCredential != nil
        let answer: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = { disposition, credential in
            guard disposition == .performDefaultHandling, !proposesCredential else {
                return DispatchQueue.global().async { completionHandler(disposition, credential) }
            }
            exchange.complete(data: Data(), response: response, error: nil)
            DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
        }
        if let delegate = session.delegate as? any URLSessionTaskDelegate {
            delegate.urlSession(session, task: task, didReceive: challenge, completionHandler: answer)
        } else {
            answer(.performDefaultHandling, nil)
        }
    }
    #endif
}
