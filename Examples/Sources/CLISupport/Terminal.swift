import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Questions asked on the terminal: only when standard input is one, never in a pipeline.
enum Terminal {
    /// Whether standard input is a terminal (a person can answer).
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for a line with echo on (an email address). `nil` at end of input.
    static func readLine(prompt: String) -> String? {
        Output.writeError(prompt, newline: false)
        return Swift.readLine(strippingNewline: true)
    }

    /// Asks for a secret with echo off, restoring the terminal afterwards — and on Ctrl-C,
    /// which ends the program with status 130 like any interrupted command.
    ///
    /// - Returns: the line typed, or `nil` at end of input (Ctrl-D).
    static func readSecret(prompt: String) throws(CLIError) -> String? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw .store("cannot turn off echo on this terminal (\(String(cString: strerror(errno))))")
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)

        // Ctrl-C while echo is off must not leave the terminal silent: catch SIGINT on a
        // dispatch queue (not in a signal handler), restore the terminal, then exit.
        let saved = original
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            var restore = saved
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore)
            Output.writeError("")
            exit(130)
        }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }

        Output.writeError(prompt, newline: false)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else {
            throw .store("cannot turn off echo on this terminal (\(String(cString: strerror(errno))))")
        }
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        return Swift.readLine(strippingNewline: true)
    }
}
