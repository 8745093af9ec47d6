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

    /// JSON with sorted keys and RFC 3339 dates: the SDK's encoder, pretty-printed. Strings
    /// keep their values, but no control character appears raw: the encoder escapes C0, and DEL,
    /// C1 and the bidirectional and separator characters (which it leaves raw) are written as
    /// `\uXXXX` escapes here, so the JSON is safe on a terminal and parses to the same values.
    public static func encode<Value: Encodable>(_ value: Value) throws(CLIError) -> String {
        let encoder = JSONCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        let json: String
        do {
            json = String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw CLIError(.unexpected, "could not encode the result as JSON: \(error)")
        }
        return escapingControls(inJSON: json)
    }

    /// `json` with every character ``TerminalText/safe(_:keepingLineBreaks:)`` escapes, other
    /// than the layout's newlines, written as a JSON `\uXXXX` escape (valid only inside a
    /// string, which is the only place JSON can hold such a character).
    static func escapingControls(inJSON json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if TerminalText.isEscaped(scalar, keepingLineBreaks: true) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Writes a line to standard output, control characters escaped (line breaks kept): see
    /// ``TerminalText``.
    public static func writeOutput(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalText.safe(text, keepingLineBreaks: true) + "\n").utf8))
    }

    /// Writes a line (or a prompt, without the newline) to standard error, control characters
    /// escaped (line breaks kept): see ``TerminalText``.
    public static func writeError(_ text: String, newline: Bool = true) {
        let safe = TerminalText.safe(text, keepingLineBreaks: true)
        FileHandle.standardError.write(Data((newline ? safe + "\n" : safe).utf8))
    }
}

/// The running program's name, for messages: `app-member` or `app-admin`.
public enum Program {
    public static let name: String = {
        let path = CommandLine.arguments.first ?? "app"
        return URL(fileURLWithPath: path).lastPathComponent
    }()
}
