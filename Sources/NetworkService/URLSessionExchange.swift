import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of a ``URLSessionTransport`` while it runs: it collects the body up to the
/// limit, judges redirects by ``RedirectPolicy``, ends the request at its deadline, and
/// resumes the caller exactly once, with the first outcome decided (the answer, a refusal,
/// the deadline, a cancellation). Whatever URLSession reports afterwards is dropped.
///
/// `@unchecked Sendable`: URLSession calls it from its delegate queue, the deadline from
/// ``DeadlineTimer``'s queue and cancellation from any thread; every stored property that changes is
/// read and written under `lock` only, and the continuation is resumed outside the lock,
/// once (``decide(_:)`` takes it out under the lock).
final class URLSessionExchange: DeadlineExpiring, @unchecked Sendable {
    typealias Answer = (Data, HTTPResponse)

    private let request: HTTPRequest
    private let timeout: TimeInterval
    private let deadline: DispatchTime
    private let maximumBytes: Int
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Answer, any Error>?
    private var task: URLSessionTask?
    /// The exchange's entry in ``DeadlineTimer``, while it waits there.
    private var deadlineEntry: UInt64?
    private var resend: URL?
    /// The outcome, once decided; kept until the continuation arrives when it came first.
    private var outcome: Result<Answer, any Error>?
    private var body = Data()

    /// An exchange for `request` that ends at `deadline`, reported as the transport's `timeout`.
    init(request: HTTPRequest, timeout: TimeInterval, deadline: DispatchTime, maximumBytes: Int) {
        self.request = request
        self.timeout = timeout
        self.deadline = deadline
        self.maximumBytes = maximumBytes
    }

    /// Starts `task` (unless the outcome is already known, a cancellation say) and its
    /// deadline; `continuation` gets the outcome.
    func start(_ task: URLSessionTask, continuation: CheckedContinuation<Answer, any Error>) {
        let decided: Result<Answer, any Error>? = lock.withLock {
            if let outcome { return outcome }
            self.continuation = continuation
            self.task = task
            // Under the lock, so an outcome decided meanwhile removes it (``decide(_:)``).
            self.deadlineEntry = DeadlineTimer.shared.add(self, at: deadline)
            return nil
        }
        if let decided {
            Self.cancel(task)
            continuation.resume(with: decided)
            return
        }
        task.resume()
    }

    /// The deadline passed: the request ends with `.timedOut`.
    func deadlinePassed() {
        finish(.failure(TransportError.deadlineExceeded(timeout: timeout)))
    }

    /// Where to send the request again, with its method and body, once the exchange answered
    /// a 307 or 308: set when the exchange declined to let URLSession follow it.
    var resendTarget: URL? { lock.withLock { resend } }

    /// The caller's task was cancelled.
    func cancel() {
        finish(.failure(CancellationError()))
    }

    /// The response head arrived; `false` when the outcome is already decided (a redirect that
    /// was refused arrives here as the final answer: its body, however long, is not read) or
    /// its `Content-Length` is over the limit (the request is then ended).
    func receive(_ response: URLResponse) -> Bool {
        if lock.withLock({ outcome != nil }) { return false }
        var announced = response.expectedContentLength
        if announced < 0, let field = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") {
            // A length that does not fit in 64 bits (2^64, say) reads as unknown (-1) here:
            // it is still a length over any limit.
            let digits = field.trimmingCharacters(in: .whitespaces)
            if !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                announced = Int64(digits) ?? .max
            }
        }
        guard announced > Int64(maximumBytes) else { return true }
        finish(.failure(TransportError.responseTooLarge(limit: maximumBytes, announcedLength: Int(clamping: announced))))
        return false
    }

    /// Body bytes arrived: kept while the body stays within the limit; past it the request
    /// ends and nothing more is kept.
    func receive(_ data: Data) {
        let tooLarge: Bool = lock.withLock {
            guard outcome == nil else { return false }
            guard data.count <= maximumBytes - body.count else { return true }
            body.append(data)
            return false
        }
        if tooLarge {
            finish(.failure(TransportError.responseTooLarge(limit: maximumBytes)))
        }
    }

    /// The server answered `response`, a redirect that URLSession would follow with
    /// `newRequest`: gives `answer` the request to follow, or `nil` when ``RedirectPolicy``
    /// refuses (the request then fails with `.redirectRefused`).
    ///
    /// The target is the `Location` resolved against the URL that answered (RFC 9110
    /// §10.2.2). FoundationNetworking on Linux drops the trailing slash of a relative
    /// `Location` (`/v1/posts/` becomes `/v1/posts`, which redirects again until "too many
    /// redirects"); the resolved URL keeps it.
    ///
    /// `answer` is called under the lock, and on Linux not at all once the outcome is
    /// decided: FoundationNetworking traps ("Received callback for HTTP redirection, but
    /// we're not waiting for it") when the answer comes after a cancellation of the task has
    /// been handled. Under the lock, an answer is always handed over before ``finish(_:cancelling:)``
    /// can cancel the task, or not at all.
    func redirect(_ response: HTTPURLResponse, to newRequest: URLRequest, answer: (URLRequest?) -> Void) {
        var newRequest = newRequest
        if let location = response.value(forHTTPHeaderField: "Location"), let base = response.url,
           let target = URL(string: location, relativeTo: base)?.absoluteURL {
            newRequest.url = target
        }
        let refusal = newRequest.url.flatMap { RedirectPolicy.refusal(of: request, redirectedTo: $0) }
        // A 307 or 308 keeps the method and body, but FoundationNetworking on Linux drops the
        // body of a request it follows: the transport sends it again itself (``resendTarget``).
        let resendsItself = refusal == nil && (response.statusCode == 307 || response.statusCode == 308)
            && !(request.body ?? Data()).isEmpty
        let taken: Taken? = lock.withLock {
            guard outcome == nil else {
                #if !canImport(FoundationNetworking)
                answer(nil)
                #endif
                return nil
            }
            if let refusal {
                answer(nil)
                return decide(.failure(refusal))
            }
            if resendsItself {
                resend = newRequest.url
                answer(nil)
            } else {
                answer(newRequest)
            }
            return nil
        }
        // Not cancelled here (FoundationNetworking traps on a redirect answer after a
        // cancellation): the redirect then arrives as the final answer, whose head
        // ``receive(_:)-(URLResponse)`` declines, which ends the task.
        if let taken { hand(taken, cancelling: false) }
    }

    /// The task ended (a session of the transport's own: the body came through ``receive(_:)-(Data)``).
    func complete(response: URLResponse?, error: (any Error)?) {
        let data = lock.withLock { body }
        complete(data: data, response: response, error: error)
    }

    /// The task ended with `data` (a session of yours: the whole body arrives here).
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error {
            let urlError = error as? URLError
            if urlError?.code == .cancelled {
                finish(.failure(CancellationError()))
            } else {
                finish(.failure(TransportError(urlError.map(URLSessionTransport.kind(of:)) ?? .other, underlying: error)))
            }
            return
        }
        guard let http = response as? HTTPURLResponse else {
            finish(.failure(TransportError(.other)))
            return
        }
        let data = data ?? Data()
        guard data.count <= maximumBytes else {
            finish(.failure(TransportError.responseTooLarge(limit: maximumBytes)))
            return
        }
        finish(.success((data, HTTPResponse(statusCode: http.statusCode, fields: .urlResponse(.init(response: http))))))
    }

    /// What ``decide(_:)`` takes out of the exchange, for ``hand(_:cancelling:)``.
    private typealias Taken = (result: Result<Answer, any Error>, continuation: CheckedContinuation<Answer, any Error>?,
                               task: URLSessionTask?, deadlineEntry: UInt64?)

    /// Decides the outcome if nothing has yet (see ``hand(_:cancelling:)``).
    private func finish(_ result: Result<Answer, any Error>, cancelling: Bool = true) {
        if let taken = lock.withLock({ decide(result) }) { hand(taken, cancelling: cancelling) }
    }

    /// Records `result` as the outcome unless one is already there, and takes out what
    /// ``hand(_:cancelling:)`` needs. Called under the lock.
    private func decide(_ result: Result<Answer, any Error>) -> Taken? {
        guard outcome == nil else { return nil }
        outcome = result
        body = Data()
        defer { continuation = nil; task = nil; deadlineEntry = nil }
        return (result, continuation, task, deadlineEntry)
    }

    /// Stops the deadline, cancels the task when `cancelling` and the outcome is a failure
    /// (a success came in full), and resumes the caller. Called outside the lock.
    private func hand(_ taken: Taken, cancelling: Bool) {
        if let entry = taken.deadlineEntry { DeadlineTimer.shared.remove(entry) }
        if cancelling, case .failure = taken.result, let task = taken.task { Self.cancel(task) }
        taken.continuation?.resume(with: taken.result)
    }

    /// Cancels `task`. On Linux, from another thread: FoundationNetworking's `cancel` waits
    /// for its work queue, where the transport's delegate runs (``InlineOperationQueue``),
    /// so from a callback it would wait for itself.
    private static func cancel(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
        DispatchQueue.global().async { task.cancel() }
        #else
        task.cancel()
        #endif
    }
}
