/// Keeps secrets out of everything the SDK prints.
enum Redaction {
    static let placeholder = "<redacted>"

    /// Header fields whose values are credentials.
    static func isSensitiveHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "authorization" || lowered == "proxy-authorization" || lowered == "cookie"
            || lowered == "set-cookie" || lowered.contains("token") || lowered.contains("api-key")
    }

    /// Replaces the given secrets and anything that looks like a token (a run of 20 or
    /// more characters from the JWT / base64 alphabets) with `<redacted>`.
    static func redact(_ text: String, secrets: [String] = []) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: placeholder)
        }
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

    /// At most `limit` characters of a response body, redacted, on one line.
    static func snippet(of body: [UInt8], limit: Int = 80, secrets: [String] = []) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        let oneLine = text.map { $0.isNewline ? " " : $0 }
        let redacted = redact(String(oneLine), secrets: secrets)
        guard redacted.count > limit else { return redacted }
        return String(redacted.prefix(limit)) + "…"
    }
}
