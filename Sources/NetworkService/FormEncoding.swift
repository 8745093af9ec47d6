import Foundation

/// `application/x-www-form-urlencoded` (the WHATWG URL standard's serializer, which RFC 6749
/// Appendix B points to): unreserved bytes kept, space as `+`, every other byte `%XX`.
package enum FormEncoding {
    /// `text` encoded; `spaceAsPlus: false` writes a space as `%20` (for a URL's query).
    package static func encode(_ text: String, spaceAsPlus: Bool = true) -> String {
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

    package static func body(_ fields: [(name: String, value: String)]) -> String {
        fields.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}
