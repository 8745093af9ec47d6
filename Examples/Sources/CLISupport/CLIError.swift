/// A failure the programs report: a message for stderr and the exit status that goes with it.
///
/// Every error a command meets (from the SDK, the store, the terminal) becomes one of these
/// in one place (``CLIError/init(_:)``), so each failure class always gets the same exit code.
/// Messages never contain a token, a passphrase or key material: they are built from the
/// SDK's descriptions, which redact them.
public struct CLIError: Error, Sendable, CustomStringConvertible {
    /// The exit status.
    public let status: ExitStatus
    /// What went wrong, in one line.
    public let message: String
    /// What to do about it, if there is something to say.
    public let hint: String?

    /// Creates an error.
    public init(_ status: ExitStatus, _ message: String, hint: String? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    /// The message and the hint, as printed.
    public var description: String {
        hint.map { "\(message)\n  hint: \($0)" } ?? message
    }

    static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(.usage, message, hint: hint)
    }

    static func store(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(.store, message, hint: hint)
    }
}
