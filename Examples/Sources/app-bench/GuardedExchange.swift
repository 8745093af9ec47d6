import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cheapest URLSession exchange that keeps what the SDK's transport must keep: the
/// response size limit (the announced length, then the body counted as it arrives), the
/// redirect rule (a redirect to another origin is refused) and a whole-request deadline (one
/// shared timer, as the transport's), with the response head; the session's delegate hands
/// each callback to the task's exchange. `app-bench per-call` measures
/// it as the floor of a guarded call: what any transport with these protections costs at least.
final class GuardedExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `lock`.
    struct Refused: Error {}

    private let lock = NSLock()
    private let maximumBytes: Int
    private let origin: (scheme: String?, host: String?, port: Int?)
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    private var body = Data()
    private var response: HTTPURLResponse?
    private var deadlineEntry: UInt64?
    private var task: URLSessionTask?

    private init(url: URL, maximumBytes: Int) {
        self.maximumBytes = maximumBytes
        self.origin = (url.scheme, url.host, url.port)
    }

    /// A session whose delegate hands each callback to its task's exchange, on the thread that
    /// reports it (no hop to a queue). FoundationNetworking does not deliver a data task's
    /// body to a per-task delegate, so the session's delegate looks the exchange up, as the
    /// SDK's transport does.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        #if canImport(FoundationNetworking)
        return URLSession(configuration: configuration, delegate: GuardedSessionDelegate.shared, delegateQueue: InlineQueue())
        #else
        return URLSession(configuration: configuration, delegate: GuardedSessionDelegate.shared, delegateQueue: nil)
        #endif
    }

    /// Sends `request` on `session` (made by ``makeSession()``) within `timeout` seconds in all.
    static func send(_ request: URLRequest, on session: URLSession, timeout: TimeInterval, maximumBytes: Int) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw Refused() }
        let exchange = GuardedExchange(url: url, maximumBytes: maximumBytes)
        let task = session.dataTask(with: request)
        GuardedSessionDelegate.shared.register(exchange, for: task)
        return try await withCheckedThrowingContinuation { continuation in
            exchange.lock.withLock {
                exchange.continuation = continuation
                exchange.task = task
                exchange.deadlineEntry = GuardedDeadlines.shared.add(exchange, at: .now() + timeout)
            }
            task.resume()
        }
    }

    func deadlinePassed() { finish(.failure(URLError(.timedOut))) }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let target = request.url, target.scheme == origin.scheme, target.host == origin.host, target.port == origin.port else {
            completionHandler(nil)
            return finish(.failure(Refused()))
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse, response.expectedContentLength <= Int64(maximumBytes) else {
            completionHandler(.cancel)
            return finish(.failure(Refused()))
        }
        lock.withLock { self.response = http }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = lock.withLock { () -> Bool in
            guard data.count <= maximumBytes - body.count else { return true }
            body.append(data)
            return false
        }
        if tooLarge { finish(.failure(Refused())) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { return finish(.failure(error)) }
        let answer = lock.withLock { response.map { (body, $0) } }
        finish(answer.map { .success($0) } ?? .failure(URLError(.badServerResponse)))
    }

    private func finish(_ result: Result<(Data, HTTPURLResponse), any Error>) {
        let (continuation, entry, task) = lock.withLock {
            defer { self.continuation = nil; self.deadlineEntry = nil; self.task = nil }
            return (self.continuation, self.deadlineEntry, self.task)
        }
        guard let continuation else { return }
        if let entry { GuardedDeadlines.shared.remove(entry) }
        if case .failure = result, let task { DispatchQueue.global().async { task.cancel() } }
        continuation.resume(with: result)
    }
}

/// The guarded session's delegate: each task's callbacks go to its exchange.
final class GuardedSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `exchanges` is used under `lock` only.
    static let shared = GuardedSessionDelegate()
    private let lock = NSLock()
    private var exchanges: [Int: GuardedExchange] = [:]

    func register(_ exchange: GuardedExchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> GuardedExchange? { lock.withLock { exchanges[task.taskIdentifier] } }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let exchange = exchange(task) else { return completionHandler(nil) }
        exchange.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(dataTask) else { return completionHandler(.cancel) }
        exchange.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        exchange?.urlSession(session, task: task, didCompleteWithError: error)
    }
}

#if canImport(FoundationNetworking)
/// Runs a delegate callback where it is reported.
private final class InlineQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: it keeps no state of its own.
    override func addOperation(_ block: @escaping @Sendable () -> Void) { block() }
}
#endif

/// One timer for every guarded exchange's deadline, armed for the earliest.
final class GuardedDeadlines: @unchecked Sendable {
    // @unchecked: `entries`, `nextID` and `armed` are used under `lock` only.
    static let shared = GuardedDeadlines()

    private let lock = NSLock()
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "app-bench.GuardedDeadlines"))
    private var entries: [UInt64: (deadline: DispatchTime, exchange: GuardedExchange)] = [:]
    private var nextID: UInt64 = 0
    private var armed: DispatchTime?

    private init() {
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    func add(_ exchange: GuardedExchange, at deadline: DispatchTime) -> UInt64 {
        lock.withLock {
            nextID += 1
            entries[nextID] = (deadline, exchange)
            if armed.map({ deadline < $0 }) ?? true {
                armed = deadline
                timer.schedule(deadline: deadline)
            }
            return nextID
        }
    }

    func remove(_ id: UInt64) { _ = lock.withLock { entries.removeValue(forKey: id) } }

    private func fire() {
        let now = DispatchTime.now()
        let due: [GuardedExchange] = lock.withLock {
            var next: DispatchTime?
            var due: [GuardedExchange] = []
            for (id, entry) in entries {
                if entry.deadline <= now {
                    due.append(entry.exchange)
                    entries[id] = nil
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            armed = next
            if let next { timer.schedule(deadline: next) }
            return due
        }
        for exchange in due { exchange.deadlinePassed() }
    }
}
