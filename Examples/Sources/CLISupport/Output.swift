import Foundation
import NetworkService

/// Where results and messages go: results to standard output (human text, or JSON with
/// `--json`), messages to standard error.
public struct Output: Sendable {
    /// Whether results are printed as JSON.
    public let json: Bool
    /// Whether progress notes are printed on standard error.
    public let verbose: Bool

    /// Creates an output.
    public init(json: Bool, verbose: Bool = false) {
        self.json = json
        self.verbose = verbose
    }

    /// Prints a result: `value` as JSON with `--json`, else the human text.
    public func result<Value: Encodable>(_ value: Value, human: () -> String) throws(CLIError) {
        if json {
            Self.writeOutput(try Self.encode(value))
        } else {
            Self.writeOutput(human())
        }
    }

    /// Prints a note on standard error when `--verbose` is on.
    public func note(_ message: String) {
        if verbose { Self.writeError("\(Program.name): \(message)") }
    }

    /// JSON with sorted keys and RFC 3339 dates: the SDK's encoder, pretty-printed.
    public static func encode<Value: Encodable>(_ value: Value) throws(CLIError) -> String {
        let encoder = JSONCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw CLIError(.unexpected, "could not encode the result as JSON: \(error)")
        }
    }

    /// Writes a line to standard output.
    public static func writeOutput(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes a line (or a prompt, without the newline) to standard error.
    public static func writeError(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((newline ? text + "\n" : text).utf8))
    }
}

/// The running program's name, for messages: `app-member` or `app-admin`.
public enum Program {
    public static let name: String = {
        let path = CommandLine.arguments.first ?? "app"
        return URL(fileURLWithPath: path).lastPathComponent
    }()
}
