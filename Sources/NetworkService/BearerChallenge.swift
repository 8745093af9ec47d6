/// Reads the parameters of a `WWW-Authenticate` challenge with the `Bearer` scheme
/// (RFC 6750 §3, auth-param syntax of RFC 9110 §11.2): `name=token` or `name="quoted
/// string"`, separated by commas. ``DPoPChallenge`` reads the `DPoP` scheme's (RFC 9449 §7.1)
/// with the same parser.
enum BearerChallenge {
    /// The parameters of the first `Bearer` challenge in `header`, names lowercased;
    /// `nil` when there is no Bearer challenge.
    static func parameters(of header: String) -> [String: String]? {
        AuthenticateChallenge.parameters(of: header, scheme: "bearer")
    }

    /// Whether `header` holds a `Bearer` challenge (alone or in a list such as
    /// `Basic realm="x", Bearer error="invalid_token"`).
    static func hasBearerChallenge(_ header: String) -> Bool {
        AuthenticateChallenge.hasChallenge(in: header, scheme: "bearer")
    }
}

/// The parser of `WWW-Authenticate` challenges (RFC 9110 §11.2) behind ``BearerChallenge`` and
/// ``DPoPChallenge``, with the scheme as a parameter.
///
/// It reads Unicode scalars, not `Character`s: a quote or comma next to a combining mark or a
/// prepend character is one grapheme cluster with it, which a `Character` comparison misses
/// (the www-authenticate fuzz target found it).
enum AuthenticateChallenge {
    private typealias Scalars = Substring.UnicodeScalarView

    /// The parameters of the first challenge with `scheme` (given in lower case; matched
    /// without regard to case) in `header`, names lowercased; `nil` when there is none.
    static func parameters(of header: String, scheme: String) -> [String: String]? {
        guard let list = parameterList(of: header, scheme: scheme) else { return nil }
        var parameters: [String: String] = [:]
        for (name, value) in list { parameters[name] = value }  // a repeated name: the last one
        return parameters
    }

    /// The parameters of the first challenge with `scheme` (given in lower case) in `header`,
    /// in their order, names lowercased, a repeated name as often as it comes (for a reader
    /// that refuses repeats, as ``StepUpChallenge`` does); `nil` when there is no such challenge.
    static func parameterList(of header: String, scheme: String) -> [(name: String, value: String)]? {
        guard var rest = challenge(in: header, scheme: scheme) else { return nil }
        var parameters: [(name: String, value: String)] = []
        while true {
            skip(&rest, while: { $0 == " " || $0 == "," || $0 == "\t" })
            let name = String(take(&rest, while: { $0 != "=" && $0 != " " && $0 != "," }))
            guard !name.isEmpty else { break }
            skipSpaces(&rest)
            guard rest.first == "=" else { break }  // a token68 or the next challenge: stop
            rest = rest.dropFirst()
            skipSpaces(&rest)
            let value: String
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var text = String.UnicodeScalarView()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first {
                        text.append(escaped)
                        rest = rest.dropFirst()
                    } else {
                        text.append(character)
                    }
                }
                rest = rest.dropFirst()
                value = String(text)
            } else {
                value = String(take(&rest, while: { $0 != "," && $0 != " " }))
            }
            parameters.append((name.lowercased(), value))
        }
        return parameters
    }

    /// Whether `header` holds a challenge with `scheme` (given in lower case), alone or in a list.
    static func hasChallenge(in header: String, scheme: String) -> Bool {
        challenge(in: header, scheme: scheme) != nil
    }

    /// What follows the scheme name in `header`: the scheme at the start, or after a comma
    /// (where a list of challenges continues), followed by a space, a comma or the end.
    private static func challenge(in header: String, scheme: String) -> Scalars? {
        var rest = Substring(header).unicodeScalars
        while true {
            skip(&rest, while: { $0 == " " || $0 == "\t" || $0 == "," })
            guard !rest.isEmpty else { return nil }
            let word = rest.prefix { $0 != " " && $0 != "\t" && $0 != "," && $0 != "=" }
            let after = rest.dropFirst(word.count)
            if String(word).lowercased() == scheme, after.first != "=" {
                return after
            }
            // Skip to the next comma outside a quoted string.
            var inQuotes = false
            var escaped = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if escaped { escaped = false; continue }
                if character == "\\" { escaped = true; continue }
                if character == "\"" { inQuotes.toggle(); continue }
                if character == "," && !inQuotes { break }
            }
        }
    }

    private static func skipSpaces(_ text: inout Scalars) {
        skip(&text, while: { $0 == " " || $0 == "\t" })
    }

    private static func skip(_ text: inout Scalars, while predicate: (Unicode.Scalar) -> Bool) {
        _ = take(&text, while: predicate)
    }

    private static func take(_ text: inout Scalars, while predicate: (Unicode.Scalar) -> Bool) -> Scalars {
        let end = text.firstIndex { !predicate($0) } ?? text.endIndex
        let taken = text[..<end]
        text = text[end...]
        return taken
    }
}
