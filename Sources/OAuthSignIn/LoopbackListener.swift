import Foundation
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The browser flow's redirect listener (RFC 8252 §7.3): a TCP socket on 127.0.0.1, on a port
/// the kernel picks, that takes one HTTP request on the redirect path, answers it with a short
/// page and closes. POSIX sockets, so the package needs nothing else.
///
/// What it accepts, and why:
/// - One `GET <path>?…` request: its URL is the callback; the browser gets a 200 page.
/// - A request to another path gets 404 and ends the flow with ``SignInError/LoopbackFailure/otherPath``;
///   a request that is not `GET <target> HTTP/1.x`, or whose head stops part way for 10 s, gets
///   400 and ``SignInError/LoopbackFailure/malformedRequest``; a head over 8 KiB gets 431 and
///   ``SignInError/LoopbackFailure/oversizedRequest``. Only the browser should talk to this port
///   during a sign-in, so anything else is reported at once rather than waited past.
/// - A connection that sends nothing (a browser's speculative preconnect) is not a request:
///   it is closed when it ends or after the read deadline, and the listener waits on. At most
///   16 connections are open at once; more are closed at once.
///
/// The wait ends at the flow's timeout (``SignInError/Kind/timedOut``) or when the task is
/// cancelled (``SignInError/Kind/cancelled``).
///
/// Its descriptors are close-on-exec: the browser a front end starts during the wait (or any
/// program it starts) does not inherit the socket, so once the flow closes it the port is free.
final class LoopbackListener: Sendable {
    /// The port the listener is bound to.
    let port: Int
    /// The path of the redirect URI, e.g. `/callback`.
    let path: String
    /// The largest request head read (request line and headers), in bytes.
    static let maximumHeadSize = 8192
    /// How long a connection may take to send its request head.
    static let readDeadline: Duration = .seconds(10)
    /// How many connections may be open at once.
    static let maximumConnections = 16

    private let listenDescriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Binds 127.0.0.1 on `port` (0: a port the system picks) and listens.
    /// - Throws: ``SignInError/loopbackFailed(_:)`` with `.bind` when no socket can be made, or
    ///   the port is taken (the detail names it).
    init(path: String = "/callback", port: UInt16 = 0, readDeadline: Duration = LoopbackListener.readDeadline) throws(SignInError) {
        self.path = path
        self.expectedState = LockedValue(nil)
        self.deadlinePerConnection = readDeadline
        func failure(_ step: String) -> SignInError {
            SignInError.loopbackFailed(.bind).with(detail: "\(step) failed: \(String(cString: strerror(errno))).")
        }
        // Every descriptor is close-on-exec: a program the app starts meanwhile (the browser
        // it opens, say) must not inherit the listening socket and keep the port open after
        // the flow closed it.
        #if canImport(Glibc) || canImport(Musl)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("socket()") }
        Self.closeOnExec(descriptor)
        if port != 0 {
            // A fixed port that an earlier sign-in's connections left in TIME_WAIT binds again at
            // once; a port another program listens on is still refused (Linux and Darwin alike).
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = bound == 0 ? withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        } : -1
        guard named == 0, listen(descriptor, 16) == 0 else {
            let error = failure(bound != 0 ? "bind(127.0.0.1:\(port))" : "listen()")
            _ = Self.closeDescriptor(descriptor)
            throw error
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var pipeDescriptors: [Int32] = [0, 0]
        guard pipe(&pipeDescriptors) == 0 else {
            let error = failure("pipe()")
            _ = Self.closeDescriptor(descriptor)
            throw error
        }
        pipeDescriptors.forEach(Self.closeOnExec)
        listenDescriptor = descriptor
        wakeRead = pipeDescriptors[0]
        wakeWrite = pipeDescriptors[1]
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    private let deadlinePerConnection: Duration
    /// The `state` the callback should carry, for the page the browser is shown.
    private let expectedState: LockedValue<String?>

    /// Sets the `state` of the authorization request whose callback is awaited: the browser is
    /// told it is signed in only when the callback carries it (with a code and no error).
    func expect(state: String) {
        expectedState.withLock { $0 = state }
    }

    deinit { close() }

    /// The redirect URI to send in the authorization request: `http://127.0.0.1:<port><path>`.
    var redirectURI: URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Waits for the one request on the redirect path and returns its URL.
    /// - Throws: ``SignInError``: `.timedOut` after `timeout`, `.cancelled` when the task is
    ///   cancelled, `.loopbackFailed` as the type's documentation says.
    func waitForCallback(timeout: Duration) async throws(SignInError) -> URL {
        let deadline = ContinuousClock.now + timeout
        let result: Result<URL, SignInError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                    return
                }
                let thread = Thread { continuation.resume(returning: self.serve(until: deadline)) }
                thread.name = "OAuthSignIn.LoopbackListener"
                thread.start()
            }
        } onCancel: {
            wake()
        }
        return try result.get()
    }

    /// Stops listening; a wait in progress ends with `.cancelled`. Idempotent.
    func close() {
        lifecycle.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            if state.serving {
                // The serving thread wakes up, sees `closed` and releases the descriptors.
                signalWake()
            } else {
                releaseDescriptors(&state)
            }
        }
    }

    /// Whether the listener was closed, whether a thread serves it, whether its descriptors
    /// are closed: one value behind one lock, so that exactly one party closes each descriptor
    /// exactly once and nothing writes to a descriptor number after it was released.
    private struct Lifecycle: Sendable {
        var closed = false
        var serving = false
        var released = false
    }

    private let lifecycle = LockedValue(Lifecycle())

    /// Wakes the serving thread (cancellation), unless the descriptors are gone.
    private func wake() {
        lifecycle.withLock { state in
            if !state.released { signalWake() }
        }
    }

    private func signalWake() {
        var byte: UInt8 = 1
        _ = withUnsafePointer(to: &byte) { write(wakeWrite, $0, 1) }
    }

    private func releaseDescriptors(_ state: inout Lifecycle) {
        guard !state.released else { return }
        state.released = true
        for descriptor in [listenDescriptor, wakeRead, wakeWrite] { _ = Self.closeDescriptor(descriptor) }
    }

    // MARK: Serving (on the listener's own thread)

    private struct Connection {
        let descriptor: Int32
        let acceptedAt: ContinuousClock.Instant
        var head: [UInt8] = []
    }

    /// Accepts and reads connections until one sends a request (the outcome) or the deadline passes.
    private func serve(until deadline: ContinuousClock.Instant) -> Result<URL, SignInError> {
        let started = lifecycle.withLock { state in
            guard !state.closed, !state.serving else { return false }
            state.serving = true
            return true
        }
        guard started else { return .failure(.cancelled) }
        var connections: [Connection] = []
        defer {
            for connection in connections { _ = Self.closeDescriptor(connection.descriptor) }
            lifecycle.withLock { state in
                state.serving = false
                if state.closed { releaseDescriptors(&state) }
            }
        }
        while true {
            if lifecycle.withLock({ $0.closed }) { return .failure(.cancelled) }
            let now = ContinuousClock.now
            guard now < deadline else {
                return .failure(SignInError.timedOut.with(detail: "No browser came back to \(redirectURI.absoluteString) in time."))
            }
            // Connections that sent nothing by their deadline are preconnects: closed quietly.
            // One that sent part of a head and stalled is a malformed request.
            var kept: [Connection] = []
            for connection in connections {
                guard now - connection.acceptedAt >= deadlinePerConnection else { kept.append(connection); continue }
                if connection.head.isEmpty {
                    _ = Self.closeDescriptor(connection.descriptor)
                } else {
                    answer(connection.descriptor, status: "400 Bad Request", page: Self.errorPage)
                    return .failure(SignInError.loopbackFailed(.malformedRequest)
                        .with(detail: "A request to the sign-in listener stopped before the end of its head."))
                }
            }
            connections = kept
            let nextDeadline = connections.map { $0.acceptedAt + deadlinePerConnection }.min().map { min($0, deadline) } ?? deadline
            let wait = max(0, min(Self.milliseconds(nextDeadline - now), 60_000))
            var descriptors = [pollfd(fd: listenDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            descriptors += connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(wait))
            if ready < 0 {
                if errno == EINTR { continue }
                return .failure(SignInError.loopbackFailed(.bind).with(detail: "poll() failed: \(String(cString: strerror(errno)))."))
            }
            if descriptors[1].revents != 0 { return .failure(.cancelled) }
            for index in connections.indices.reversed() where descriptors[index + 2].revents != 0 {
                switch read(into: &connections[index]) {
                case .waiting:
                    continue
                case .ended:
                    _ = Self.closeDescriptor(connections[index].descriptor)
                    connections.remove(at: index)
                case let .outcome(outcome):
                    return outcome
                }
            }
            if descriptors[0].revents != 0 {
                let accepted = accept(listenDescriptor, nil, nil)
                if accepted >= 0 {
                    Self.closeOnExec(accepted)
                    if connections.count >= Self.maximumConnections {
                        _ = Self.closeDescriptor(accepted)
                    } else {
                        Self.preventSIGPIPE(accepted)
                        connections.append(Connection(descriptor: accepted, acceptedAt: ContinuousClock.now))
                    }
                }
            }
        }
    }

    private enum ReadResult {
        case waiting
        case ended
        case outcome(Result<URL, SignInError>)
    }

    /// Reads what `connection` has sent; a complete head is answered and decides the flow.
    private func read(into connection: inout Connection) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .waiting }
            return connection.head.isEmpty ? .ended : .outcome(.failure(SignInError.loopbackFailed(.malformedRequest)
                .with(detail: "A connection to the sign-in listener failed part way through its request.")))
        }
        if count == 0 {
            guard !connection.head.isEmpty else { return .ended }
            answer(connection.descriptor, status: "400 Bad Request", page: Self.errorPage)
            return .outcome(.failure(SignInError.loopbackFailed(.malformedRequest)
                .with(detail: "A request to the sign-in listener ended before its head was complete.")))
        }
        connection.head += buffer[0..<count]
        guard let end = Self.endOfHead(connection.head) else {
            if connection.head.count > Self.maximumHeadSize {
                answer(connection.descriptor, status: "431 Request Header Fields Too Large", page: Self.errorPage)
                return .outcome(.failure(SignInError.loopbackFailed(.oversizedRequest)
                    .with(detail: "A request to the sign-in listener had a head over \(Self.maximumHeadSize) bytes.")))
            }
            return .waiting
        }
        guard end <= Self.maximumHeadSize else {
            answer(connection.descriptor, status: "431 Request Header Fields Too Large", page: Self.errorPage)
            return .outcome(.failure(SignInError.loopbackFailed(.oversizedRequest)
                .with(detail: "A request to the sign-in listener had a head over \(Self.maximumHeadSize) bytes.")))
        }
        return .outcome(respond(to: Array(connection.head[0..<end]), on: connection.descriptor))
    }

    /// Answers a complete request head and returns the flow's outcome.
    private func respond(to head: [UInt8], on descriptor: Int32) -> Result<URL, SignInError> {
        let requestLine = head.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first.map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? ""
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1."),
              let url = URL(string: "http://127.0.0.1:\(port)\(parts[1])") else {
            answer(descriptor, status: "400 Bad Request", page: Self.errorPage)
            return .failure(SignInError.loopbackFailed(.malformedRequest)
                .with(detail: "A request to the sign-in listener was not `GET <path> HTTP/1.x`."))
        }
        let requestPath = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard requestPath == path else {
            answer(descriptor, status: "404 Not Found", page: Self.errorPage)
            return .failure(SignInError.loopbackFailed(.otherPath)
                .with(detail: "A request to the sign-in listener asked for another path than \(path)."))
        }
        // The page says "signed in" only for a code with the expected state; the flow makes the
        // same checks (and more) before it believes anything.
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let looksApproved = items.contains { $0.name == "code" } && !items.contains { $0.name == "error" }
            && items.first { $0.name == "state" }?.value == expectedState.withLock({ $0 })
        answer(descriptor, status: "200 OK", page: looksApproved ? Self.donePage : Self.errorPage)
        return .success(url)
    }

    /// Writes a complete answer (best effort: the outcome does not depend on the browser reading it).
    private func answer(_ descriptor: Int32, status: String, page: String) {
        let body = Array(page.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8) + body
        var sent = 0
        var attempts = 0
        while sent < bytes.count, attempts < 100 {
            attempts += 1
            let written = bytes.withUnsafeMutableBytes { buffer in
                // Never nil: the buffer holds at least the head.
                guard let base = buffer.baseAddress else { return -1 }
                return send(descriptor, base + sent, buffer.count - sent, Self.sendFlags)
            }
            if written > 0 { sent += written } else if written < 0, errno != EAGAIN, errno != EINTR { break }
        }
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    static let donePage = "<!doctype html><meta charset=utf-8><title>Signed in</title>"
        + "<p>You are signed in. You can close this window and return to the application.</p>"
    static let errorPage = "<!doctype html><meta charset=utf-8><title>Sign-in not completed</title>"
        + "<p>The sign-in did not complete. Return to the application for details.</p>"

    /// The index just past `\r\n\r\n` (or `\n\n`), if the head is complete.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 1..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
            if bytes[index - 1] == UInt8(ascii: "\n") { return index + 1 }
            if index >= 3, bytes[index - 1] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n") { return index + 1 }
        }
        return nil
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds < 86_400 else { return 86_400_000 }
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000) + 1)
    }

    #if canImport(Glibc) || canImport(Musl)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static func preventSIGPIPE(_ descriptor: Int32) {}
    #else
    private static let sendFlags: Int32 = 0
    private static func preventSIGPIPE(_ descriptor: Int32) {
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
    #endif

    /// Marks `descriptor` close-on-exec. The listening socket is made so at once on Linux
    /// (`SOCK_CLOEXEC`); elsewhere, and for the wake pipe and accepted connections (Swift's
    /// Glibc module shows neither `pipe2` nor `accept4`), a program started by another thread
    /// between the two calls can still inherit the descriptor.
    private static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #elseif canImport(Musl)
        Musl.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }
}
