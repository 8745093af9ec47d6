import Foundation

/// The contract's validation rules. Lengths count Unicode scalars (as JSON Schema's `maxLength` does).
///
/// No string field (text or password) may contain U+0000: SQLite's C API and bcrypt both treat it
/// as the end of the string, so `"a\u{0}b"` would be stored as `"a"` and a password of NULs would
/// hash as the empty password.
public enum Validation {
    /// The fewest characters (Unicode scalars) in a password.
    public static let minimumPasswordLength = 8
    /// The most UTF-8 bytes in a password: bcrypt reads only the first 72, so a longer one would
    /// be accepted with a tail that does not matter.
    public static let maximumPasswordBytes = 72
    /// How the password rule reads in messages.
    public static let passwordRule = "at least \(minimumPasswordLength) characters and at most \(maximumPasswordBytes) bytes in UTF-8"
    /// Allowed nickname lengths, after trimming whitespace.
    public static let nicknameLength = 1...30
    /// Allowed content lengths (answers, posts, comments).
    public static let contentLength = 1...1000
    /// Allowed report-reason lengths.
    public static let reasonLength = 1...500
    /// The longest email address.
    public static let maximumEmailLength = 254

    /// The characters that are never allowed in an email and that nicknames are trimmed of.
    static let blanks: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n"]

    /// An email is `local@domain`: no second `@`, no spaces, tabs or line breaks, a non-empty local
    /// part, and a dot in the domain that is neither its first nor its last character; at most
    /// 254 characters. (`openapi.yaml` states the same rule as a regular expression.)
    public static func isValidEmail(_ email: String) -> Bool {
        let scalars = Array(email.unicodeScalars)
        guard scalars.count <= maximumEmailLength, !scalars.contains(where: blanks.contains), !containsNUL(email) else { return false }
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1]
        guard domain.count >= 3, domain.first != "." else { return false }
        return domain.dropFirst().dropLast().contains(".")
    }

    /// Removes leading and trailing spaces, tabs and line breaks.
    static func trimBlanks(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, blanks.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, blanks.contains(last) { scalars.removeLast() }
        return String(Substring(scalars))
    }

    /// A password must have at least 8 characters, at most 72 UTF-8 bytes and no U+0000.
    public static func isValidPassword(_ password: String) -> Bool {
        password.unicodeScalars.count >= minimumPasswordLength && password.utf8.count <= maximumPasswordBytes
            && !containsNUL(password)
    }

    /// Whether the string contains U+0000.
    public static func containsNUL(_ text: String) -> Bool {
        text.utf8.contains(0)
    }

    /// The value of a required string field; U+0000 is refused in every field.
    public static func required(_ value: String?, field: String) throws(APIError) -> String {
        guard let value else { throw .invalidRequest("\(field): is required") }
        guard !containsNUL(value) else { throw .invalidRequest("\(field): must not contain U+0000") }
        return value
    }

    /// A valid email, normalized (see ``normalizedEmail(_:)``).
    public static func email(_ value: String?, field: String = "email") throws(APIError) -> String {
        let email = try required(value, field: field)
        guard isValidEmail(email) else {
            throw .invalidRequest("\(field): must be an email address (local@domain with a dot in the domain, no spaces, at most \(maximumEmailLength) characters)")
        }
        return normalizedEmail(email)
    }

    /// The form in which emails are stored, compared and throttled: lower case, then Unicode NFC
    /// (canonical composition). `josé@example.com` written with a precomposed `é` (U+00E9) and
    /// with `e` plus a combining accent (U+0301) are the same address, and so are `Ann@…` and
    /// `ann@…`; SQLite compares bytes, so both spellings must become the same bytes first.
    public static func normalizedEmail(_ email: String) -> String {
        email.lowercased().precomposedStringWithCanonicalMapping
    }

    /// Whether two strings are the same bytes (Swift's `==` equates canonically equivalent strings).
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    /// A valid password (returned unchanged).
    public static func password(_ value: String?, field: String = "password") throws(APIError) -> String {
        let password = try required(value, field: field)
        guard isValidPassword(password) else {
            throw .invalidRequest("\(field): must be \(passwordRule)")
        }
        return password
    }

    /// A valid nickname, trimmed of spaces, tabs and line breaks.
    public static func nickname(_ value: String?, field: String = "nickname") throws(APIError) -> String {
        let nickname = trimBlanks(try required(value, field: field))
        guard nicknameLength.contains(nickname.unicodeScalars.count) else {
            throw .invalidRequest("\(field): must be \(nicknameLength.lowerBound)-\(nicknameLength.upperBound) characters after trimming")
        }
        return nickname
    }

    /// A string field whose length must lie in `range`.
    public static func text(_ value: String?, field: String, length range: ClosedRange<Int>) throws(APIError) -> String {
        let text = try required(value, field: field)
        guard range.contains(text.unicodeScalars.count) else {
            throw .invalidRequest("\(field): must be \(range.lowerBound)-\(range.upperBound) characters")
        }
        return text
    }
}
