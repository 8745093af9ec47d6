import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`, `ulimit -n`) against the
/// connection limit: each connection is a descriptor, and past the limit `accept` fails at once
/// again and again (with 512 connections allowed under `ulimit -n 256` the server spun at
/// 100 % CPU and requests timed out).
///
/// At start the server makes room for ``ServerConfiguration/maxConnections`` plus
/// ``reserve(processors:)``: it raises the soft limit up to the hard limit when that is enough
/// (macOS starts processes with a soft limit of 256 under a much higher hard one), and refuses
/// to start otherwise, naming both numbers. It never lowers the connection limit on its own:
/// an operator who asked for 512 connections should learn that they cannot be had.
public enum FileDescriptorLimit {
    /// The process's soft and hard limits.
    public struct Limits: Sendable, Equatable {
        /// The limit in force (`ulimit -Sn`).
        public var soft: UInt64
        /// The most the soft limit may be raised to without privileges (`ulimit -Hn`).
        public var hard: UInt64

        /// Creates limits.
        public init(soft: UInt64, hard: UInt64) {
            self.soft = soft
            self.hard = hard
        }
    }

    /// What to do about the limits.
    public enum Decision: Sendable, Equatable {
        /// The soft limit is enough.
        case enough
        /// Raise the soft limit to this many descriptors (the hard limit allows it).
        case raise(to: UInt64)
        /// Not enough even at the hard limit; the message names the numbers.
        case refuse(ConfigurationError)
    }

    /// Descriptors kept for everything but connections: the standard streams, the listening
    /// socket, the database with its journal, the secret file, and each event loop's
    /// epoll/kqueue, wake-up and timer descriptors.
    /// - Parameter processors: the number of processors (event loops); this machine's when `nil`.
    public static func reserve(processors: Int? = nil) -> Int {
        32 + 3 * max(1, min(processors ?? ProcessInfo.processInfo.activeProcessorCount, 1024))
    }

    /// Decides whether `maxConnections` fit under `limits` (`maxConnections` is already within
    /// ``ServerConfiguration/maxConnectionsRange``, so the sum cannot overflow).
    public static func decide(maxConnections: Int, reserve: Int, limits: Limits) -> Decision {
        let needed = UInt64(max(0, maxConnections)) + UInt64(max(0, reserve))
        if limits.soft >= needed { return .enough }
        if limits.hard >= needed { return .raise(to: needed) }
        let fitting = limits.hard > UInt64(reserve) ? limits.hard - UInt64(reserve) : 0
        return .refuse(
            .invalid(
                "max connections \(maxConnections) needs \(needed) file descriptors (\(reserve) more for the database, "
                    + "listener and event loops), but the process may open at most \(limits.hard) (ulimit -n): "
                    + (fitting > 0 ? "lower --max-connections to \(fitting) or less, or raise the limit" : "raise the limit")
            )
        )
    }

    /// Makes room for `maxConnections` connections in this process, raising its soft limit if
    /// needed and allowed.
    /// - Throws: ``ConfigurationError/invalid(_:)`` naming both numbers when the limit is too low,
    ///   or when it cannot be read or raised.
    public static func makeRoom(forConnections maxConnections: Int) throws(ConfigurationError) {
        var current = rlimit()
        guard getrlimit(resourceNumber, &current) == 0 else {
            throw .invalid("cannot read the file descriptor limit: \(String(cString: strerror(errno)))")
        }
        let limits = Limits(soft: UInt64(current.rlim_cur), hard: UInt64(current.rlim_max))
        switch decide(maxConnections: maxConnections, reserve: reserve(), limits: limits) {
        case .enough:
            return
        case .raise(let target):
            var raised = current
            raised.rlim_cur = rlim_t(target)
            guard setrlimit(resourceNumber, &raised) == 0 else {
                throw .invalid(
                    "max connections \(maxConnections) needs \(target) file descriptors, but the limit is \(limits.soft) (ulimit -n) "
                        + "and raising it failed: \(String(cString: strerror(errno)))"
                )
            }
        case .refuse(let error):
            throw error
        }
    }

    #if canImport(Glibc)
    private static let resourceNumber = __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue))
    #else
    private static let resourceNumber = RLIMIT_NOFILE
    #endif
}
