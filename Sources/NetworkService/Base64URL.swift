/// Base64url without padding (RFC 4648 §5), as JOSE writes every binary value (RFC 7515 §2):
/// the segments of a DPoP proof, a key's coordinates, a thumbprint, `ath` and `jti`.
///
/// Written by hand rather than through `Data.base64EncodedString()` and three replacements:
/// a proof encodes its payload and signature on every request.
package enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url, without padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(group >> 18)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(alphabet[Int(group >> 6 & 0x3F)])
            out.append(alphabet[Int(group & 0x3F)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(group >> 18)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(group >> 18)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(alphabet[Int(group >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text`; `nil` when it has a character outside the
    /// alphabet (padding included) or a length no encoding has.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
            }
        }
        return out
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
