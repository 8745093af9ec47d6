import Foundation
import Testing
@testable import TokenStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue #39, item 2: a process waiting for another's exclusive section waits blocked in
/// `flock`, woken by the kernel when the lock is free, instead of trying again every few
/// milliseconds; a wait given up (cancelled, timed out) answers at once, and its thread
/// releases the lock as soon as it gets it.
@Suite("Waiting for another process's lock file: blocked in flock, never polling, and given up cleanly")
struct FileLockWaitTests {
    /// Another process's section: an exclusive `flock` through a descriptor of our own
    /// (flock locks belong to open file descriptions, so this one conflicts with the store's).
    final class Holder: Sendable {
        let fd: Int32
        init(_ path: String) {
            fd = open(path, O_RDWR | O_CREAT, 0o600)
            flock(fd, LOCK_EX)
        }
        func release() { close(fd) }
        /// Whether the lock is free now: taken and released at once through a new descriptor.
        static func isFree(_ path: String) -> Bool {
            let fd = open(path, O_RDWR | O_CREAT, 0o600)
            defer { close(fd) }
            return flock(fd, LOCK_EX | LOCK_NB) == 0
        }
    }

    func lockPath(_ folder: URL) -> String { folder.appendingPathComponent("tokens.lock").path }

    @Test("a lock held elsewhere is waited for, taken once it is released, and held until released here")
    func waitsThenTakes() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let path = lockPath(folder)
            let holder = Holder(path)
            let waiter = Task { try await FileLock.acquire(path: path, folder: folder.path, timeout: nil, cancellable: true) }
            try await Task.sleep(nanoseconds: 100_000_000)
            holder.release()
            let fd = try await waiter.value
            #expect(!Holder.isFree(path), "the waiter should hold the lock")
            FileLock.release(fd)
            #expect(Holder.isFree(path))
        }
    }

    @Test("a cancelled wait ends at once; its thread takes the lock when it is released and gives it back")
    func cancelledWait() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let path = lockPath(folder)
            let holder = Holder(path)
            let waiter = Task { try await FileLock.acquire(path: path, folder: folder.path, timeout: nil, cancellable: true) }
            try await Task.sleep(nanoseconds: 50_000_000)
            waiter.cancel()
            await #expect(throws: CancellationError.self) { _ = try await waiter.value }
            holder.release()
            // The abandoned thread now gets the lock and closes it: a new acquire succeeds.
            let fd = try await FileLock.acquire(path: path, folder: folder.path, timeout: .seconds(10), cancellable: true)
            FileLock.release(fd)
        }
    }

    @Test("a wait past the timeout fails with lockFailed naming the timeout; the lock is not left taken")
    func timedOutWait() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let path = lockPath(folder)
            let holder = Holder(path)
            let error = await TokenStoreTesting.expectStoreError {
                _ = try await FileLock.acquire(path: path, folder: folder.path, timeout: .milliseconds(50), cancellable: true)
            }
            #expect(error?.kind == .lockFailed)
            #expect(error?.reason.contains("timeout") == true)
            holder.release()
            let fd = try await FileLock.acquire(path: path, folder: folder.path, timeout: .seconds(10), cancellable: true)
            FileLock.release(fd)
        }
    }

    @Test("a wait that ignores cancellation still ends with the lock taken")
    func uncancellableWait() async throws {
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let path = lockPath(folder)
            let holder = Holder(path)
            let waiter = Task { try await FileLock.acquire(path: path, folder: folder.path, timeout: nil, cancellable: false) }
            try await Task.sleep(nanoseconds: 50_000_000)
            waiter.cancel()
            try await Task.sleep(nanoseconds: 50_000_000)
            holder.release()
            let fd = try await waiter.value
            #expect(!Holder.isFree(path))
            FileLock.release(fd)
        }
    }

    @Test("while it waits, the waiter makes no system calls: one thread blocked in flock, no timer")
    func noPolling() async throws {
        #if os(Linux)
        try await TokenStoreTesting.withTemporaryFolder { folder in
            let path = lockPath(folder)
            let holder = Holder(path)
            let waiter = Task { try await FileLock.acquire(path: path, folder: folder.path, timeout: nil, cancellable: true) }
            // Find the waiting thread by its name and count its context switches over 300 ms:
            // a thread blocked in flock makes none; polling every 1–10 ms would make 30 or more.
            var switches: Int?
            for _ in 0..<100 where switches == nil {
                switches = Self.contextSwitches(ofThreadNamed: "flock-wait")
                if switches == nil { try await Task.sleep(nanoseconds: 10_000_000) }
            }
            let before = try #require(switches, "no waiting thread found")
            try await Task.sleep(nanoseconds: 300_000_000)
            let after = try #require(Self.contextSwitches(ofThreadNamed: "flock-wait"))
            #expect(after - before <= 2, "the waiting thread woke \(after - before) times in 300 ms")
            holder.release()
            FileLock.release(try await waiter.value)
        }
        #endif
    }

    /// Voluntary plus involuntary context switches of this process's thread named `name`
    /// (Linux keeps 15 characters of a thread's name), from /proc.
    static func contextSwitches(ofThreadNamed name: String) -> Int? {
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        for tid in tids {
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let status = try? String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8) else { continue }
            var total = 0
            for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
            }
            return total
        }
        return nil
    }
}
