import Foundation
import FuzzSupport
@testable import OAuthSignIn

/// The browser flow's redirect listener (`LoopbackListener`, RFC 8252 §7.3) and its HTTP
/// request parser, fed over a real loopback connection: the fuzzer's bytes are all the
/// connection sends before it closes its side.
/// Invariants: every request ends the wait at once with a URL on the listener's own origin and
/// path (`http://127.0.0.1:<port>/callback…`, answered 200) or a `.loopbackFailed` error of
/// `.malformedRequest` (400), `.otherPath` (404) or `.oversizedRequest` (431); the answer's
/// status agrees with the outcome.
@main enum LoopbackRequestFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        // A connection that sends nothing is a preconnect, which the listener waits past.
        guard !input.bytes.isEmpty else { return }
        let listener = try! LoopbackListener(path: "/callback", readDeadline: .seconds(5))
        defer { listener.close() }
        listener.expect(state: "fuzz-state")
        let port = listener.port
        let outcome = Outcome()
        let waiting = Thread {
            outcome.set(runBlocking {
                do throws(SignInError) { return .success(try await listener.waitForCallback(timeout: .seconds(10))) } catch { return .failure(error) }
            })
        }
        waiting.start()
        let answer = loopbackExchange(port: port, bytes: input.bytes)
        require(answer != nil, "no connection to the listener: \(String(cString: strerror(errno)))")
        let result = outcome.wait()
        let statusLine = String(decoding: (answer ?? []).prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        switch result {
        case let .success(url):
            require(url.scheme == "http" && url.host == "127.0.0.1" && url.port == port, "a callback on another origin: \(url)")
            require(url.path == "/callback", "a callback on another path: \(url.path)")
            require(statusLine.isEmpty || statusLine == "HTTP/1.1 200 OK", "a callback answered \(statusLine)")
        case let .failure(error):
            require(error.kind == .loopbackFailed, "failed with \(error.kind): \(error)")
            let expected: String
            switch error.loopbackFailure {
            case .malformedRequest?: expected = "HTTP/1.1 400 Bad Request"
            case .otherPath?: expected = "HTTP/1.1 404 Not Found"
            case .oversizedRequest?: expected = "HTTP/1.1 431 Request Header Fields Too Large"
            default: expected = ""; require(false, "failed with \(String(describing: error.loopbackFailure))")
            }
            require(statusLine.isEmpty || statusLine == expected, "\(String(describing: error.loopbackFailure)) answered \(statusLine)")
        }
    }
}

/// The listener's outcome, handed from its waiting thread.
///
/// `@unchecked Sendable` is safe: `result` is only touched under `condition`'s lock.
final class Outcome: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<URL, SignInError>?

    func set(_ value: Result<URL, SignInError>) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Result<URL, SignInError> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
