import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to 127.0.0.1 for requests no HTTP client would send (unknown methods,
/// oversized headers, half-sent requests).
///
/// `@unchecked Sendable`: its only state is the descriptor, set once in `init`; `send` and
/// `readUntilClosed` are awaited one at a time by the test that owns the socket.
final class RawSocket: @unchecked Sendable {
    private let fd: Int32

    /// Connects to `127.0.0.1:port` from `source` (another loopback address such as `127.0.0.2`
    /// looks like another client: Linux routes all of 127.0.0.0/8 to the loopback interface).
    init(port: Int, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    /// Closes both directions the way the kernel does for a killed process: the server reads
    /// the end of the stream. The descriptor itself is closed in `deinit`.
    func shutDown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends all bytes (a failure to send is ignored: the server may already have closed), from a
    /// Dispatch thread like ``readUntilClosed(timeout:)``.
    func send(_ text: String) async {
        let bytes = Array(text.utf8)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { self.blockingSend(bytes); continuation.resume() }
        }
    }

    private func blockingSend(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Reads until the server closes the connection or `timeout` passes; returns what arrived,
    /// whether the server closed, and how long it took. Blocks a Dispatch thread, never one of
    /// Swift's cooperative threads (an in-process server's connection handlers need those).
    func readUntilClosed(timeout: Double) async -> (text: String, closed: Bool, seconds: Double) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingRead(timeout: timeout)) }
        }
    }

    private func blockingRead(timeout: Double) -> (text: String, closed: Bool, seconds: Double) {
        let start = Date()
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let remaining = timeout - Date().timeIntervalSince(start)
            guard remaining > 0 else { return (String(decoding: data, as: UTF8.self), false, Date().timeIntervalSince(start)) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: data, as: UTF8.self), true, Date().timeIntervalSince(start)) }
            data += buffer[0..<count]
        }
    }
}
