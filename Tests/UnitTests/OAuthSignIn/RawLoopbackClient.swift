import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that sends exact bytes to 127.0.0.1:`port`, for requests no browser would send.
enum RawLoopbackClient {
    /// Connects; `nil` when nothing listens.
    static func connect(port: Int) -> Int32? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { _ = close(descriptor); return nil }
        // A listener that never answers fails the test in 5 s instead of hanging it.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Whether nothing listens on `port` any more, or stops listening within half a second.
    ///
    /// A program another test starts at that moment holds a copy of every descriptor from its
    /// `fork` to its `exec`, close-on-exec ones too, so a closed listener's port can take
    /// connections for those few milliseconds; a descriptor the program inherits for good (the
    /// bug this checks for) keeps it open for the whole wait. At most 10 connections, fewer than
    /// any listener's backlog here, so none of them waits for an `accept` that never comes.
    static func refusesConnections(port: Int) async -> Bool {
        for _ in 0..<10 {
            guard let descriptor = connect(port: port) else { return true }
            _ = close(descriptor)
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Sends `bytes` on a new connection and reads the answer until the listener closes.
    static func exchange(port: Int, _ bytes: [UInt8]) -> String {
        guard let descriptor = connect(port: port) else { return "" }
        defer { _ = close(descriptor) }
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            if written <= 0 { break }
            sent += written
        }
        return readAll(descriptor)
    }

    /// Everything the peer sends until it closes (at most 64 KiB).
    static func readAll(_ descriptor: Int32) -> String {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while answer.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    private static func connectSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }
}

/// Runs blocking socket code on a thread of its own: on the cooperative pool (two threads on
/// a two-core machine) it would starve the tasks that serve the other end.
func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
