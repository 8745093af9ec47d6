import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// How a child started with ``spawn(_:environment:standardInput:standardOutput:standardError:)`` ended.
    public struct Termination: Sendable, Equatable {
        /// The exit status, or 128 + the signal's number when a signal ended it (as a shell says).
        public var status: Int32
        /// The signal that ended it, if one did.
        public var signal: Int32?
    }

    /// Runs `arguments` (the program's path first) to completion with `posix_spawn` and
    /// `waitpid`, standard input from /dev/null and standard output and error appended to the
    /// file at `outputPath`; returns the exit status (128 + the signal when one killed it).
    ///
    /// For commands that leave a daemon running (a script that starts a server): unlike a
    /// pipe, the file does not keep the caller waiting for the daemon's end, and waiting on
    /// the pid directly does not depend on Foundation noticing the child's exit.
    /// Blocks the calling thread while the command runs.
    public static func runToCompletion(_ arguments: [String], outputPath: String) throws -> Int32 {
        let pid = try spawn(arguments, standardOutput: outputPath, standardError: nil)
        return waitForExit(pid).status
    }

    /// Starts `arguments` (the program's path first) with `posix_spawn`, its standard input
    /// read from the file at `standardInput`, standard output and error appended to the files
    /// at `standardOutput` and `standardError` (`nil`: error goes where output goes), and
    /// `environment` as its whole environment (`nil`: the caller's). Returns its pid; wait for
    /// it with ``waitForExit(_:)``.
    ///
    /// The child gets no other descriptor of the caller's (its sockets, its files): a daemon
    /// it starts does not hold them open after the caller is done with them. Unlike
    /// Foundation's `Process`, several threads may start children at once (on Linux,
    /// `Process.run()` from 4 tasks at once crashed the test process in its memcpy, 1 run in 3).
    public static func spawn(_ arguments: [String], environment: [String: String]? = nil,
                             standardInput: String = "/dev/null", standardOutput: String,
                             standardError: String?) throws -> Int32 {
        guard let program = arguments.first else { throw TestSetupError("spawn: no program named") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        if let standardError {
            posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        // Every descriptor not named by the file actions is closed in the child.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        closeInheritedDescriptors(&actions)
        #endif
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned: Int32
        if let environment {
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        } else {
            spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        }
        guard spawned == 0 else {
            throw TestSetupError("cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for the child `pid` to end and says how it ended. Blocks the calling thread:
    /// call it on a thread of its own, not on Swift's cooperative pool.
    ///
    /// `beforeReaping` runs once the child has ended but while its pid still names it (a
    /// zombie): a timer that may kill the child stands down there, and so can never signal
    /// another process that is given the pid afterwards.
    public static func waitForExit(_ pid: Int32, beforeReaping: () -> Void = {}) -> Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        beforeReaping()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? Termination(status: (status >> 8) & 0xff, signal: nil) : Termination(status: 128 + signal, signal: signal)
    }

    #if !canImport(Darwin)
    /// Closes every descriptor from 3 up in the child: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later, looked up at run time since
    /// Swift's Glibc module does not show it), else each one open now (`/proc/self/fd`).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, 3) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
    #endif
}
