import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The task delegate of a request that ``URLSessionTransport`` sends through a session of
/// yours: it judges each redirect by ``RedirectPolicy``, through the request's
/// ``URLSessionExchange``, and implements nothing else, so every other callback still goes
/// to your session's delegate.
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
}
