/// What counts as a control character from the server, for the kit and the CLIs' tests.
public enum HostileText {
    /// Whether `scalar` may not reach a terminal from the server: C0 and C1 controls, DEL,
    /// and the bidirectional formatting characters; a line break or a tab is allowed only in a
    /// multi-line text (a `dump`, a program's output), whose lines are the program's own.
    public static func isForbidden(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !multiline
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The forbidden characters in `text`.
    public static func controlCharacters(in text: String, multiline: Bool) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { isForbidden($0, multiline: multiline) }
    }

    /// `text` with every forbidden character written as `\u{…}` (line breaks too), to print safely.
    public static func visible(_ text: String) -> String {
        text.unicodeScalars.map { isForbidden($0, multiline: false) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
