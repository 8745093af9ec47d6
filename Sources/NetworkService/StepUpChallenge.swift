/// A resource's request for a stronger or more recent sign-in (RFC 9470, OAuth 2.0 Step Up
/// Authentication Challenge): a 401 whose `WWW-Authenticate` challenge, with the `Bearer` or
/// the `DPoP` scheme, says `error="insufficient_user_authentication"`, with the
/// authentication context classes the resource accepts (`acr_values`) and/or how long ago the
/// user may have signed in (`max_age`, seconds):
///
/// ```
/// HTTP/1.1 401 Unauthorized
/// WWW-Authenticate: Bearer error="insufficient_user_authentication",
///   error_description="A different authentication level is required",
///   acr_values="myACR"
/// ```
///
/// The access token is good; the sign-in behind it is not enough. Refreshing cannot help (a
/// refreshed token carries the same sign-in): the user signs in again, asking for
/// ``acrValues`` and ``maxAge``. ``NetworkError/isStepUpChallenge`` tells such an answer
/// from others, and ``NetworkError/stepUpChallenge()`` reads it.
public struct StepUpChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The challenge's authentication scheme.
    public enum Scheme: String, Sendable, Hashable {
        /// `WWW-Authenticate: Bearer …` (RFC 6750).
        case bearer = "Bearer"
        /// `WWW-Authenticate: DPoP …` (RFC 9449), for a DPoP-bound token.
        case dpop = "DPoP"
    }

    /// The scheme of the challenge that asked; `nil` when the server said
    /// `insufficient_user_authentication` only as its body's error code.
    public let scheme: Scheme?
    /// The authentication context class references the resource accepts, in the server's
    /// order (its space-separated `acr_values`, duplicates dropped); empty when it named none.
    public let acrValues: [String]
    /// How many seconds ago, at most, the user may have signed in (`max_age`); `nil` when the
    /// server named no limit. Within 0 … ``maximumMaxAge``.
    public let maxAge: Int?
    /// The challenge's `error_description`, redacted of anything token-like, control characters
    /// escaped, at most 200 characters; `nil` when it had none.
    public let errorDescription: String?

    /// The largest `max_age` read: ten years, in seconds. A larger one is refused
    /// (``StepUpChallengeError/Kind/invalidMaxAge``).
    public static let maximumMaxAge = 315_360_000
    /// The most `acr_values` a challenge may name.
    public static let maximumACRValueCount = 32
    /// The longest value (in Unicode scalars) `acr_values` may hold.
    public static let maximumACRValueLength = 255

    /// A challenge with these parameters (a test's, or an app's own reading of a response).
    public init(scheme: Scheme?, acrValues: [String] = [], maxAge: Int? = nil, errorDescription: String? = nil) {
        self.scheme = scheme
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.errorDescription = errorDescription
    }

    /// For example `StepUpChallenge(Bearer, acr_values: [urn:example:mfa], max_age: 300)`;
    /// never the `error_description`.
    public var description: String {
        var text = "StepUpChallenge(" + (scheme?.rawValue ?? "error code")
        if !acrValues.isEmpty { text += ", acr_values: [" + acrValues.map(Redaction.printable).joined(separator: ", ") + "]" }
        if let maxAge { text += ", max_age: \(maxAge)" }
        return text + ")"
    }

    /// Reads the step-up challenge in a `WWW-Authenticate` header.
    ///
    /// - Returns: The challenge, or `nil` when neither a `Bearer` nor a `DPoP` challenge in
    ///   `header` says `error="insufficient_user_authentication"`.
    /// - Throws: ``StepUpChallengeError`` when it does, but its `acr_values` or `max_age`
    ///   cannot be used: a `max_age` that is not a whole number of seconds within
    ///   0 … ``maximumMaxAge``, a control character or too many or too long values in
    ///   `acr_values`, either parameter twice with different values, or a `Bearer` and a `DPoP`
    ///   challenge asking for different things.
    public static func parse(_ header: String) throws(StepUpChallengeError) -> StepUpChallenge? {
        switch reading(of: header) {
        case nil: return nil
        case let .challenge(challenge)?: return challenge
        case let .unreadable(error)?: throw error
        }
    }

    /// What a response's challenge says about a step-up: a usable challenge, one that asks for a
    /// step-up with parameters that cannot be used, or (`nil`) none.
    package enum Reading: Sendable, Hashable {
        case challenge(StepUpChallenge)
        case unreadable(StepUpChallengeError)
    }

    /// ``parse(_:)`` as a ``Reading``.
    package static func reading(of header: String) -> Reading? {
        var readings: [Reading] = []
        for scheme in [Scheme.bearer, .dpop] {
            guard let list = AuthenticateChallenge.parameterList(of: header, scheme: scheme.rawValue.lowercased()),
                  list.contains(where: { $0.name == "error" && $0.value == ServerErrorCode.insufficientUserAuthentication.rawValue })
            else { continue }
            do {
                readings.append(.challenge(try challenge(scheme: scheme, parameters: list)))
            } catch {
                readings.append(.unreadable(error))
            }
        }
        guard let first = readings.first else { return nil }
        guard readings.count == 2 else { return first }
        if case let .unreadable(error) = readings[1] { return first.isUnreadable ? first : .unreadable(error) }
        guard case let .challenge(bearer) = first, case let .challenge(dpop) = readings[1] else { return first }
        if bearer.acrValues == dpop.acrValues && bearer.maxAge == dpop.maxAge { return first }
        return .unreadable(StepUpChallengeError(.conflictingChallenges, parameter: nil, detail: "its Bearer challenge asks for "
            + "\(bearer.requirementText) and its DPoP challenge for \(dpop.requirementText)"))
    }

    /// The challenge `parameters` (of a challenge saying `insufficient_user_authentication`) make.
    private static func challenge(scheme: Scheme, parameters: [(name: String, value: String)]) throws(StepUpChallengeError) -> StepUpChallenge {
        var acr: String?
        var maxAge: String?
        var description: String?
        for (name, value) in parameters {
            switch name {
            case "acr_values":
                if let acr, acr != value { throw repeated(name, acr, value) }
                acr = value
            case "max_age":
                if let maxAge, maxAge != value { throw repeated(name, maxAge, value) }
                maxAge = value
            case "error_description":
                description = description ?? value
            default:
                continue
            }
        }
        return StepUpChallenge(
            scheme: scheme, acrValues: try acr.map(acrValues(in:)) ?? [], maxAge: try maxAge.map(seconds(in:)),
            errorDescription: description.map { String(Redaction.printable(Redaction.redact($0)).prefix(200)) })
    }

    /// The values of `acr_values`: space-separated, empty ones and duplicates dropped.
    private static func acrValues(in text: String) throws(StepUpChallengeError) -> [String] {
        func invalid(_ why: String) -> StepUpChallengeError {
            StepUpChallengeError(.invalidACRValues, parameter: "acr_values", detail: "acr_values \(StepUpChallengeError.quoted(text)) \(why)")
        }
        if text.unicodeScalars.contains(where: Redaction.isUnprintable) { throw invalid("holds a control character") }
        var values: [String] = []
        for value in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) where !values.contains(value) {
            guard value.unicodeScalars.count <= maximumACRValueLength else {
                throw invalid("holds a value longer than \(maximumACRValueLength) characters")
            }
            values.append(value)
            guard values.count <= maximumACRValueCount else { throw invalid("names more than \(maximumACRValueCount) values") }
        }
        return values
    }

    /// `max_age` as seconds: ASCII digits only, at most ``maximumMaxAge``.
    private static func seconds(in text: String) throws(StepUpChallengeError) -> Int {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              let seconds = Int(text), seconds <= maximumMaxAge else {
            throw StepUpChallengeError(.invalidMaxAge, parameter: "max_age", detail: "max_age \(StepUpChallengeError.quoted(text)) "
                + "is not a whole number of seconds from 0 to \(maximumMaxAge)")
        }
        return seconds
    }

    private static func repeated(_ name: String, _ first: String, _ second: String) -> StepUpChallengeError {
        StepUpChallengeError(.repeatedParameter, parameter: name, detail: "\(name) comes twice, as "
            + "\(StepUpChallengeError.quoted(first)) and \(StepUpChallengeError.quoted(second))")
    }

    /// `acr_values [a, b], max_age 300`, for a message.
    var requirementText: String {
        var parts: [String] = []
        if !acrValues.isEmpty { parts.append("acr_values [" + acrValues.map { Redaction.printable(String($0.prefix(32))) }.joined(separator: ", ") + "]") }
        if let maxAge { parts.append("max_age \(maxAge)") }
        return parts.isEmpty ? "a new sign-in" : parts.joined(separator: ", ")
    }
}

extension StepUpChallenge.Reading {
    var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }
}
