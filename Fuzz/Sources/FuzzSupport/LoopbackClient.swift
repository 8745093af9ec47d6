#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends `bytes` to 127.0.0.1:`port`, closes its sending side, and returns all it is answered
/// (up to the other side's close); `nil` when no connection could be made, with `errno` set.
public func loopbackExchange(port: Int, bytes: [UInt8]) -> [UInt8]? {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    // libFuzzer's timer (SIGALRM, for -timeout) interrupts system calls: an interrupted
    // connect goes on in the background, so wait for it and read its outcome.
    if connected != 0 {
        guard errno == EINTR else { return nil }
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&ready, 1, 5_000) < 0 && errno == EINTR {}
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else { return nil }
    }
    var sent = 0
    while sent < bytes.count {
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { break }  // the listener answered and closed early (an oversized head)
        sent += written
    }
    _ = shutdown(descriptor, Int32(SHUT_WR))
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        answer += buffer[0..<count]
    }
    return answer
}
