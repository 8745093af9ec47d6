import Foundation

/// The environment variables app-oauth reads besides the store's (CLISupport reads those).
enum Environment {
    /// The variable's value, or `nil` when unset or empty.
    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
