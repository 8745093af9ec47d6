package import Foundation

/// Keeps secrets out of everything the SDK prints, and a server's control characters too.
package enum Redaction {
    static let placeholder = "<redacted>"

    /// Header fields whose values are credentials: a DPoP proof (RFC 9449) among them, which
    /// binds a token to its key and names the request's URL.
    static func isSensitiveHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "authorization" || lowered == "proxy-authorization" || lowered == "cookie"
            || lowered == "set-cookie" || lowered == "dpop" || lowered.contains("token") || lowered.contains("api-key")
    }

    /// Replaces the given secrets and anything that looks like a token (a run of 20 or
    /// more characters from the JWT / base64 alphabets) with `<redacted>`.
    static func redact(_ text: String, secrets: [String] = []) -> String {
        let text = redactingSecrets(text, secrets)
        var result = ""
        var run = ""
        func flush() {
            result += run.count >= 20 ? placeholder : run
            run = ""
        }
        for character in text {
            if character.isASCII && (character.isLetter || character.isNumber || "-_.~+/=".contains(character)) {
                run.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// `text` with each of `secrets` replaced by `<redacted>`, in every encoding the SDK sends a
    /// secret in or a server may echo it in (``encodings(of:)``), longest first. A form shorter
    /// than 4 characters is left alone: it would garble any text (a test's token `t` in
    /// `invalid_token`), and no real secret is that short.
    package static func redactingSecrets(_ text: String, _ secrets: [String]) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        let forms = Set(secrets.flatMap(encodings(of:))).filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        return forms.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }

    /// `secret` as it is, form-encoded (space as `+`) and percent-encoded (space as `%20`),
    /// each with upper- and lower-case hex digits, in base64 and base64url (with and without
    /// padding), and JSON-escaped; the empty string has none.
    package static func encodings(of secret: String) -> [String] {
        guard !secret.isEmpty else { return [] }
        var forms: Set<String> = [secret]
        // As the SDK sends it (WHATWG), and as an RFC 3986 encoder writes it (`~` kept, `*` escaped).
        let form = FormEncoding.encode(secret)
        let rfc3986 = FormEncoding.encode(secret, spaceAsPlus: false)
            .replacingOccurrences(of: "%7E", with: "~").replacingOccurrences(of: "*", with: "%2A")
        for encoded in [form, rfc3986] {
            forms.insert(encoded)
            forms.insert(lowercasingHexDigits(encoded))
        }
        let base64 = Data(secret.utf8).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        for form in [base64, base64URL] {
            forms.insert(form)
            var unpadded = form
            while unpadded.hasSuffix("=") { unpadded.removeLast() }
            if !unpadded.isEmpty { forms.insert(unpadded) }
        }
        forms.insert(jsonEscaped(secret))
        return Array(forms)
    }

    private static func lowercasingHexDigits(_ encoded: String) -> String {
        var out = ""
        var pending = 0
        for character in encoded {
            if character == "%" { pending = 2; out.append(character); continue }
            if pending > 0 { pending -= 1; out += character.lowercased() } else { out.append(character) }
        }
        return out
    }

    /// `text` as a JSON string's contents: `"`, the backslash, `/` and control characters
    /// escaped, everything outside ASCII as a `\u` escape (UTF-16, lower-case hex).
    private static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x2F: out += "\\/"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }

    /// `text` with every control character (C0 and C1, DEL, and the bidirectional overrides and
    /// isolates that reorder what a terminal shows) written as a `\u{…}` escape, so a server's
    /// text quoted in an error cannot clear a screen, set a window title or write a clipboard
    /// (OSC 52) when printed. Tabs and newlines are escaped too: an error is one line.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnprintable(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0, DEL, C1, the bidirectional embeddings, overrides and isolates, and the line and
    /// paragraph separators.
    package static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// What a successful answer's body was, without a byte of it: `the body was empty`, or its
    /// size and media type (when that is a plain `type/subtype`). A 2xx body is never quoted,
    /// whatever its shape: a token answer that is form-encoded, has trailing bytes or nests too
    /// deep is still a token answer.
    package static func shape(ofSuccessBody body: Data, contentType: String?) -> String {
        guard !body.isEmpty else { return "the body was empty" }
        var media = ""
        if let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces), type.count <= 64,
           type.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || "/+.-_".utf8.contains($0)) }), type.contains("/") {
            media = ", " + type
        }
        return "the body (\(body.count) bytes\(media)) is not quoted: a successful answer may hold tokens"
    }

    /// At most `limit` characters of a response body, redacted, on one line.
    static func snippet(of body: [UInt8], limit: Int = 80, secrets: [String] = []) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        let oneLine = text.map { $0.isNewline ? " " : $0 }
        let redacted = redact(String(oneLine), secrets: secrets)
        guard redacted.count > limit else { return redacted }
        return String(redacted.prefix(limit)) + "…"
    }
}
