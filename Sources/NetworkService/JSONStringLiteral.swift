/// A string as a JSON string literal (RFC 8259 §7), for the JSON that DPoP proofs and key
/// thumbprints write by hand: quotes around it, `"` and the backslash escaped, control
/// characters as `\u00XX`; `/` and everything else as it is (RFC 9449's figures write
/// `https://…` so).
enum JSONStringLiteral {
    /// `text` quoted and escaped, appended to `out`.
    static func append(_ text: String, to out: inout String) {
        out.append("\"")
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            out.append(text)
        } else {
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0x00..<0x20:
                    let hex = String(scalar.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }

    /// `"name":` followed by `value` as a JSON string, appended to `out`.
    static func appendMember(_ name: String, _ value: String, to out: inout String) {
        append(name, to: &out)
        out.append(":")
        append(value, to: &out)
    }
}
