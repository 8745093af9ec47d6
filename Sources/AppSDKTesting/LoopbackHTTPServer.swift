public import Foundation
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 and a free port, for tests that exercise a real
/// transport (``TransportConformance`` runs on it). Each connection gets one request and
/// one reply (or a dropped connection); the server stops when `stop()` is called or the
/// value is released. It can also play a hostile server: a body that never ends, one that
/// trickles, a `Content-Length` that promises too much (``Reply/stream(status:announcedLength:chunk:interval:count:)``),
/// and it counts what it wrote (``bytesSent``) and the replies that ended (``repliesFinished``),
/// so a test can tell when a client stopped reading.
///
/// ```swift
/// let http = try LoopbackHTTPServer { request in .json(200, #"{"ok":true}"#) }
/// defer { http.stop() }
/// let server = try Server(baseURL: http.baseURL)
/// // ... send, then look at http.requests
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, for example `GET`.
        public let method: String
        /// The request target as sent: the path and query, for example `/v1/posts?pageSize=2`.
        public let target: String
        /// The header fields, by name as sent.
        public let headers: [String: String]
        /// The body (as long as `Content-Length` said).
        public let body: Data

        /// The value of a header field, looked up case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// What the server does with a request.
    public enum Reply: Sendable {
        /// Answers with a status, header fields and a body (`Content-Length` and
        /// `Connection: close` are added).
        case respond(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// Closes the connection without writing anything.
        case dropConnection
        /// Sends a head that promises more body than it writes, then closes.
        case truncate(status: Int, promisedLength: Int, body: Data)
        /// Waits, then replies.
        indirect case delayed(TimeInterval, Reply)
        /// Sends a head, then `chunk` again and again, `interval` seconds apart, `count` times
        /// (`nil`: until the client closes the connection), then closes. The body is chunked,
        /// unless `announcedLength` is given: then that is its `Content-Length`, whatever is
        /// sent, and the chunks go out as they are.
        case stream(status: Int, announcedLength: Int? = nil, chunk: Data, interval: TimeInterval = 0, count: Int? = nil)
        /// Writes these bytes as they are, head and body (a malformed status line, duplicated
        /// header fields, a bare CR inside a value), then closes.
        case raw(Data)
        /// Writes nothing and keeps the connection open until the client closes it or
        /// `seconds` pass, then closes: a server that never answers.
        case silent(upTo: TimeInterval)

        /// A JSON answer: `text` with `Content-Type: application/json`.
        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            headers["Content-Type"] = "application/json"
            return .respond(status: status, headers: headers, body: Data(text.utf8))
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let stopped = LockedValue(false)
    private let received = LockedValue<[Request]>([])
    private let sent = LockedValue(0)
    private let finished = LockedValue(0)

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The requests read so far, in order.
    public var requests: [Request] { received.withLock { $0 } }
    /// The bytes written so far to every connection, heads included.
    public var bytesSent: Int { sent.withLock { $0 } }
    /// How many replies have ended: written in full, or cut short because the client closed
    /// the connection.
    public var repliesFinished: Int { finished.withLock { $0 } }

    /// Waits until `count` replies have ended (see ``repliesFinished``), for at most
    /// `timeout` seconds; whether they did.
    public func waitForReplies(_ count: Int, timeout: TimeInterval) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(min(max(timeout, 0), 3_600) * 1_000))
        while repliesFinished < count {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Starts listening; `handler` chooses the reply to each request (on the connection's
    /// own thread, so it may block).
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let (fd, port) = try LoopbackSocket.open(reuseAddress: true)
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        self.listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting connections (replies under way still finish). Calling it again does nothing.
    public func stop() {
        let wasStopped = stopped.withLock { state in
            defer { state = true }
            return state
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, fcntl(client, F_GETFD) | FD_CLOEXEC)
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = readRequest(client) else { return }
        received.withLock { $0.append(request) }
        write(handler(request), to: client)
        finished.withLock { $0 += 1 }
    }

    private func write(_ reply: Reply, to client: Int32) {
        switch reply {
        case .dropConnection:
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        case let .delayed(seconds, reply):
            Thread.sleep(forTimeInterval: seconds)
            write(reply, to: client)
        case let .respond(status, headers, body):
            sendAll(client, head(status: status, headers: headers, length: body.count) + body)
        case let .truncate(status, promisedLength, body):
            sendAll(client, head(status: status, headers: ["Content-Type": "application/json"], length: promisedLength) + body)
        case let .stream(status, announcedLength, chunk, interval, count):
            stream(to: client, status: status, announcedLength: announcedLength, chunk: chunk, interval: interval, count: count)
        case let .raw(bytes):
            sendAll(client, bytes)
        case let .silent(seconds):
            waitForClose(client, upTo: seconds)
        }
    }

    /// Waits until the client closes the connection (or sends more), for at most `seconds`.
    private func waitForClose(_ client: Int32, upTo seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) != 0 { return }
        }
    }

    private func stream(to client: Int32, status: Int, announcedLength: Int?, chunk: Data, interval: TimeInterval, count: Int?) {
        let chunked = announcedLength == nil
        let head = chunked
            ? Data("HTTP/1.1 \(status) Status\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
            : self.head(status: status, headers: [:], length: announcedLength ?? 0)
        guard sendAll(client, head) else { return }
        let framed = chunked ? Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8) : chunk
        var written = 0
        while count.map({ written < $0 }) ?? true {
            if interval > 0 { Thread.sleep(forTimeInterval: interval) }
            guard sendAll(client, framed) else { return }
            written += 1
        }
        if chunked { sendAll(client, Data("0\r\n\r\n".utf8)) }
    }

    private func head(status: Int, headers: [String: String], length: Int) -> Data {
        var text = "HTTP/1.1 \(status) Status\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        return Data(text.utf8)
    }

    /// Writes all of `data`; `false` when the client closed the connection first.
    @discardableResult
    private func sendAll(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(client, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
                sent.withLock { $0 += written }
            }
            return true
        }
    }

    private func readRequest(_ client: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            let count = recv(client, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
        let headEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        var body = Data(buffer[headEnd.upperBound...])
        while body.count < length {
            let count = recv(client, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }
}
