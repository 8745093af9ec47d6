/// A text the SDK handed back during a mode, where it came from, and whether it may span
/// lines (a `dump`).
struct HostileOutput: Sendable {
    /// For example `the error's localizedDescription`.
    let source: String
    /// The text.
    let text: String
    /// Whether line breaks and tabs are the SDK's own (a `dump`), not the server's.
    var multiline = false
}
