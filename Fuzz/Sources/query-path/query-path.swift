import Foundation
import FuzzSupport
import NetworkService

/// Path and query rendering (`EndpointPath.rendered`, `QueryParameter.render`), the one place
/// the SDK percent-encodes: parsed back, the URL must say exactly what was rendered.
/// Input: fields separated by 0x00; the first is the path's segments (separated by 0x01), each
/// other one a parameter: a kind byte, then its name and values (separated by 0x01).
/// Invariants: the rendered path and query hold only unreserved characters, `%XX` and their
/// own separators; the path parses back to the segments; the query parses back, pair by pair,
/// to the names and `op.value` texts given, `in.(…)` lists to their items (quoted where
/// needed), several orders to one `order=a.asc,b.desc`; `URLComponents` reads them the same.
@main enum QueryPathFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        let fields = input.bytes.split(separator: 0, omittingEmptySubsequences: false)
        let segments = fields[0].split(separator: 1, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let path = EndpointPath(segments: segments, hasTrailingSlash: segments.count % 2 == 1)
        checkPath(path)
        var parameters: [QueryParameter] = []
        for field in fields.dropFirst() {
            guard let kind = field.first else { continue }
            let parts = field.dropFirst().split(separator: 1, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            let name = parts[0]
            let value = QueryValue(parts.count > 1 ? parts[1] : "")
            switch kind % 10 {
            case 0: parameters.append(.equal(name, value))
            case 1: parameters.append(.notEqual(name, value))
            case 2: parameters.append(.greaterThan(name, value))
            case 3: parameters.append(.greaterThanOrEqual(name, value))
            case 4: parameters.append(.lessThan(name, value))
            case 5: parameters.append(.lessThanOrEqual(name, value))
            case 6: parameters.append(.in(name, parts.dropFirst().map { QueryValue($0) }))
            case 7: parameters.append(.order(name, kind & 0x80 == 0 ? .ascending : .descending))
            case 8: parameters.append(.threshold(Int(truncatingIfNeeded: kind) &* 7919 &- 1000))
            default: parameters.append(.pageSize(parts.count))
            }
        }
        checkQuery(parameters)
    }

    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// `text` percent-decoded, requiring that it holds only unreserved characters and `%XX`.
    static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                let hex = String(decoding: utf8.prefix(2), as: UTF8.self)
                require(hex.count == 2 && hex == hex.uppercased(), "a `%` without two upper-case hex digits in \(text)")
                guard let value = UInt8(hex, radix: 16) else { require(false, "`%\(hex)` in \(text)"); return "" }
                require(!unreserved.contains(value), "an unreserved character was encoded in \(text)")
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                require(unreserved.contains(byte), "a reserved character `\(UnicodeScalar(byte))` left unencoded in \(text)")
                bytes.append(byte)
            }
        }
        let result = String(decoding: bytes, as: UTF8.self)
        require(Array(result.utf8) == bytes, "the decoded bytes are not the UTF-8 of a text")
        return result
    }

    static func checkPath(_ path: EndpointPath) {
        let rendered = path.rendered
        require(rendered.hasPrefix("/"), "a path not starting with /")
        var body = rendered.dropFirst()
        if path.hasTrailingSlash { require(body.hasSuffix("/"), "the trailing slash is lost"); body = body.dropLast() }
        let back = body.split(separator: "/", omittingEmptySubsequences: false).map(decoded)
        let expected = path.segments.isEmpty ? [""] : path.segments
        require(back == expected, "the path \(rendered) parses back to \(back), not \(expected)")
        let components = URLComponents(string: "https://api.example.com" + rendered)
        require(components?.percentEncodedPath == rendered, "URLComponents reads the path \(rendered) otherwise")
    }

    static func checkQuery(_ parameters: [QueryParameter]) {
        let rendered = QueryParameter.render(parameters)
        var expected: [(String, String)] = []
        var order: Int?
        for parameter in parameters {
            switch parameter {
            case let .equal(name, value): expected.append((name, "eq." + value.text))
            case let .notEqual(name, value): expected.append((name, "neq." + value.text))
            case let .greaterThan(name, value): expected.append((name, "gt." + value.text))
            case let .greaterThanOrEqual(name, value): expected.append((name, "gte." + value.text))
            case let .lessThan(name, value): expected.append((name, "lt." + value.text))
            case let .lessThanOrEqual(name, value): expected.append((name, "lte." + value.text))
            case let .in(name, values): expected.append((name, "in.(" + values.map(\.text).joined(separator: "\u{0}") + ")"))
            case let .order(name, direction):
                if let order { expected[order].1 += "," + name + "." + direction.rawValue } else {
                    order = expected.count
                    expected.append(("order", name + "." + direction.rawValue))
                }
            case let .threshold(id): expected.append(("threshold", String(id)))
            case let .pageSize(size): expected.append(("pageSize", String(size)))
            }
        }
        let pairs: [(String, String)] = rendered.isEmpty ? [] : rendered.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let sides = pair.split(separator: "=", omittingEmptySubsequences: false)
            require(sides.count == 2, "the pair \(pair) has not exactly one `=`")
            guard sides.count == 2 else { return ("", "") }
            return (decoded(sides[0]), decoded(sides[1]))
        }
        require(pairs.count == expected.count, "\(pairs.count) pairs rendered for \(expected.count)")
        for ((name, value), (expectedName, expectedValue)) in zip(pairs, expected) {
            require(name == expectedName, "name \(name) rendered for \(expectedName)")
            // By Unicode scalars: a list item starting with a combining mark joins `(` in one
            // grapheme cluster, which `hasPrefix("in.(")` on a String would not see.
            let prefix = "in.(".unicodeScalars
            if expectedValue.unicodeScalars.starts(with: prefix), value.unicodeScalars.starts(with: prefix),
               value.unicodeScalars.last == ")" {
                let items = listItems(String(value.unicodeScalars.dropFirst(4).dropLast()))
                let given = String(expectedValue.unicodeScalars.dropFirst(4).dropLast())
                    .unicodeScalars.split(separator: "\u{0}", omittingEmptySubsequences: false).map { String($0) }
                require(items == given || (given == [""] && items.isEmpty),
                        "the list \(value) reads back as \(items), not \(given)")
            } else {
                require(value == expectedValue, "value \(value) rendered for \(expectedValue)")
            }
        }
        let components = URLComponents(string: "https://api.example.com/?" + rendered)
        let items = components?.queryItems ?? []
        require(rendered.isEmpty || items.map(\.name) == pairs.map(\.0), "URLComponents reads other names from \(rendered)")
    }

    /// The items of an `in.(…)` list, read as a server reads it (by Unicode scalars, not by
    /// grapheme clusters): comma-separated, quoted ones unescaped.
    static func listItems(_ text: String) -> [String] {
        var items: [String] = []
        var current = String.UnicodeScalarView()
        var quoted = false
        var wasQuoted = false
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\\", let next = scalars.popFirst() { current.append(next) }
                else if scalar == "\"" { quoted = false }
                else { current.append(scalar) }
            } else if scalar == "\"" && current.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if scalar == "," {
                items.append(String(current))
                current = String.UnicodeScalarView()
                wasQuoted = false
            } else {
                require(!wasQuoted, "text after a closing quote in \(text)")
                require(!",()\" \\".unicodeScalars.contains(scalar), "a special character `\(scalar)` unquoted in \(text)")
                current.append(scalar)
            }
        }
        require(!quoted, "an unterminated quote in \(text)")
        items.append(String(current))
        return items
    }
}
