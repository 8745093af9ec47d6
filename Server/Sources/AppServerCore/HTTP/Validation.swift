import Foundation

/// The contract's validation rules. Lengths count Unicode scalars (as JSON Schema's `maxLength` does).
public enum Validation {
    /// Allowed password lengths.
    public static let passwordLength = 8...128
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
        guard scalars.count <= maximumEmailLength, !scalars.contains(where: blanks.contains) else { return false }
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

    /// A password must be 8–128 characters.
    public static func isValidPassword(_ password: String) -> Bool {
        passwordLength.contains(password.unicodeScalars.count)
    }

    /// The value of a required string field.
    public static func required(_ value: String?, field: String) throws(APIError) -> String {
        guard let value else { throw .invalidRequest("\(field): is required") }
        return value
    }

    /// A valid email, normalized to lower case.
    public static func email(_ value: String?, field: String = "email") throws(APIError) -> String {
        let email = try required(value, field: field)
        guard isValidEmail(email) else {
            throw .invalidRequest("\(field): must be an email address (local@domain with a dot in the domain, no spaces, at most \(maximumEmailLength) characters)")
        }
        return email.lowercased()
    }

    /// A valid password (returned unchanged).
    public static func password(_ value: String?, field: String = "password") throws(APIError) -> String {
        let password = try required(value, field: field)
        guard isValidPassword(password) else {
            throw .invalidRequest("\(field): must be \(passwordLength.lowerBound)-\(passwordLength.upperBound) characters")
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
