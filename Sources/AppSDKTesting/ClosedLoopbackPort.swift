import Foundation
import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 where nothing listens, and nothing can start listening while the
/// value lives: a socket is bound to it without `listen` and without `SO_REUSEADDR`, so a
/// connection is refused at once and the kernel hands the port to no other test.
///
/// A port taken from a stopped server is not enough: tests running in parallel bind
/// ports of their own, and the kernel may give one of them the port just freed.
///
/// ```swift
/// let closed = try ClosedLoopbackPort()
/// defer { closed.release() }
/// // connecting to closed.baseURL fails with "connection refused"
/// ```
public final class ClosedLoopbackPort: Sendable {
    /// The port nobody listens on.
    public let port: Int
    private let descriptor: Int32
    private let released = LockedValue(false)

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Reserves a port.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.open(reuseAddress: false)
    }

    deinit { release() }

    /// Gives the port back. Calling it again does nothing.
    public func release() {
        let wasReleased = released.withLock { state in
            defer { state = true }
            return state
        }
        guard !wasReleased else { return }
        close(descriptor)
    }
}
