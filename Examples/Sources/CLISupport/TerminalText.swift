/// Text a server chose, made safe to print on a terminal.
///
/// A server's strings (an `error_description`, a device grant's `user_code`, an ID token's
/// `sub` or `name`, userinfo, a post's content) may hold escape sequences that a terminal
/// obeys: OSC 52 writes the clipboard, OSC 0 sets the window title, CSI 2 J clears the screen,
/// and the bidirectional overrides reorder what is shown. The programs print every such string
/// through ``safe(_:keepingLineBreaks:)``, and ``Output`` passes everything it writes through it
/// once more (keeping line breaks), so nothing a server sends reaches the terminal as a control.
public enum TerminalText {
    /// `text` with every control character written as a `\u{…}` escape (upper-case hex, as the
    /// SDK's own errors write them): C0 (ESC, BEL, CR, …), DEL, C1 (CSI U+009B, OSC U+009D, …),
    /// the Arabic letter mark, the left-to-right and right-to-left marks, the bidirectional
    /// embeddings, overrides and isolates, and the line and paragraph separators. Everything
    /// else, any other letter or symbol of any script, is kept as it is.
    ///
    /// - Parameters:
    ///   - text: The string a server chose.
    ///   - keepingLineBreaks: Keep `\n` and tabs (for text shown on several lines, such as a
    ///     post's content); by default they are escaped too, so the text stays on one line
    ///     and cannot pass for a line the program printed.
    public static func safe(_ text: String, keepingLineBreaks: Bool = false) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool { isEscaped(scalar, keepingLineBreaks: keepingLineBreaks) }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escapes(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether ``safe(_:keepingLineBreaks:)`` escapes `scalar`.
    static func isEscaped(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        if keepingLineBreaks, scalar == "\n" || scalar == "\t" { return false }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
