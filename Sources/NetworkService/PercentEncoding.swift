/// The one place where path segments and query names and values are percent-encoded.
///
/// Everything but RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded as
/// UTF-8 bytes, so `&`, `=`, `+`, `/`, `?`, `#`, spaces and non-ASCII text in a value can
/// never change the structure of the URL.
package enum PercentEncoding {
    /// The percent-encoded form of `text` (RFC 3986: all but unreserved characters).
    package static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result += hexDigit(byte >> 4)
                result += hexDigit(byte & 0x0F)
            }
        }
        return result
    }

    /// The `application/x-www-form-urlencoded` form of `text` (RFC 6749 Appendix B): as
    /// ``encode(_:)``, but a space becomes `+`.
    package static func formEncode(_ text: String) -> String {
        encode(text).replacingOccurrences(of: "%20", with: "+")
    }

    /// Whether `byte` is one of RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`).
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10))
    }
}
