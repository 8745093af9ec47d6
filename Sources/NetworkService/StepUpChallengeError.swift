public import Foundation

/// Why a step-up challenge (RFC 9470) could not be read: the server asked for a stronger or
/// more recent sign-in, but what it asked for is not usable as written. The response is still
/// a step-up challenge (refreshing cannot help); only its parameters are refused.
///
/// Its description quotes at most 32 characters of the server's value, control characters
/// written as escapes.
public struct StepUpChallengeError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What was wrong. An open set: switch with a `default`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name of the kind.
        public let rawValue: String
        /// Creates a kind; prefer the static values.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `max_age` is not a whole number of seconds from 0 to ``StepUpChallenge/maximumMaxAge``
        /// (negative, a fraction, an exponent, a sign, empty, or absurdly large).
        public static let invalidMaxAge = Kind(rawValue: "invalidMaxAge")
        /// `acr_values` holds a control character, more than ``StepUpChallenge/maximumACRValueCount``
        /// values, or a value longer than ``StepUpChallenge/maximumACRValueLength`` characters.
        public static let invalidACRValues = Kind(rawValue: "invalidACRValues")
        /// `acr_values` or `max_age` came twice in one challenge with different values: which
        /// one the server means cannot be told.
        public static let repeatedParameter = Kind(rawValue: "repeatedParameter")
        /// The `Bearer` and the `DPoP` challenges both ask for a step-up, with different
        /// `acr_values` or `max_age`.
        public static let conflictingChallenges = Kind(rawValue: "conflictingChallenges")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// What was wrong.
    public let kind: Kind
    /// Which parameter (`acr_values`, `max_age`), or `nil` for ``Kind/conflictingChallenges``.
    public let parameter: String?
    /// What exactly, quoting at most 32 characters of the server's value.
    public let detail: String

    init(_ kind: Kind, parameter: String?, detail: String) {
        self.kind = kind
        self.parameter = parameter
        self.detail = detail
    }

    /// For example `the server's step-up challenge cannot be read: max_age "-1" is not a whole number of seconds from 0 to 315360000`.
    public var description: String { "the server's step-up challenge cannot be read: \(detail)" }

    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// `value` as an error may quote it: its first 32 characters, control characters escaped.
    static func quoted(_ value: String) -> String {
        let scalars = value.unicodeScalars
        var text = String(String.UnicodeScalarView(scalars.prefix(32)))
        if scalars.count > 32 { text += "…" }
        return "\"" + Redaction.printable(text) + "\""
    }
}
