import Foundation

/// `application/x-www-form-urlencoded` read back (the SDK writes it with `FormEncoding`).
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
}
