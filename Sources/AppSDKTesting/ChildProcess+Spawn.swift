import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// Runs `arguments` (the program's path first) to completion with `posix_spawn` and
    /// `waitpid`, standard input from /dev/null and standard output and error appended to the
    /// file at `outputPath`; returns the exit status (128 + the signal when one killed it).
    ///
    /// For commands that leave a daemon running (a script that starts a server): unlike a
    /// pipe, the file does not keep the caller waiting for the daemon's end, and waiting on
    /// the pid directly does not depend on Foundation noticing the child's exit.
    /// Blocks the calling thread while the command runs.
    public static func runToCompletion(_ arguments: [String], outputPath: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw TestSetupError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
