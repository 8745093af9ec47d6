import Foundation

/// `application/x-www-form-urlencoded`, as the SDK writes it, and read back.
enum FormDecoding {
    /// The name-value pairs of a form body.
    static func fields(of body: Data) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(String(parts[0])), parts.count > 1 ? decode(String(parts[1])) : "")
        }
    }

    /// The value of `name` in a form body.
    static func field(_ name: String, of body: Data) -> String? {
        fields(of: body).first { $0.name == name }?.value
    }

    /// A form-encoded value decoded (`+` as a space).
    static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }

    /// `text` encoded: unreserved bytes kept, a space as `+` (or `%20`), every other byte `%XX`.
    static func encode(_ text: String, spaceAsPlus: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append("+")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
