public import NetworkService

/// The sign-in a resource asks for (RFC 9470), as a sign-in flow asks the authorization server
/// for it: the authentication context classes it accepts (`acr_values`), how recent the
/// user's authentication must be (`max_age`, seconds), and whether the user must sign in anew
/// rather than be let through by the server's own session (`prompt=login`).
///
/// ``SessionError/authenticationRequirement`` carries one for a
/// ``SessionError/Kind/stepUpRequired`` error, built from the server's ``/NetworkService/StepUpChallenge``;
/// OAuthSignIn's flows take it (`SignInFlow.requiring(_:)`) and check the new ID token's `acr`
/// and `auth_time` against it. The article <doc:StepUpAuthentication> shows the whole round.
public struct AuthenticationRequirement: Sendable, Hashable, CustomStringConvertible {
    /// The authentication context class references to ask for, in order of preference; empty
    /// for none. The new sign-in's `acr` must be one of them.
    public var acrValues: [String]
    /// How many seconds ago, at most, the user may have authenticated; `nil` for no limit.
    /// The new sign-in's `auth_time` must be that recent.
    public var maxAge: Int?
    /// Whether to ask for `prompt=login`: the user authenticates again even when the server
    /// still has a session of its own. `true` by default: a step-up asks for a new sign-in.
    public var promptsLogin: Bool

    /// A requirement; the defaults ask for a new sign-in and nothing more.
    public init(acrValues: [String] = [], maxAge: Int? = nil, promptsLogin: Bool = true) {
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.promptsLogin = promptsLogin
    }

    /// What `challenge` asks for, with `prompt=login`.
    public init(_ challenge: StepUpChallenge) {
        self.init(acrValues: challenge.acrValues, maxAge: challenge.maxAge, promptsLogin: true)
    }

    /// For example `acr_values [urn:example:mfa], signed in within 300 s, prompt=login`.
    public var description: String {
        var parts: [String] = []
        if !acrValues.isEmpty {
            parts.append("acr_values [" + acrValues.map { Redaction.printable(String($0.prefix(64))) }.joined(separator: ", ") + "]")
        }
        if let maxAge { parts.append("signed in within \(maxAge) s") }
        if promptsLogin { parts.append("prompt=login") }
        return parts.isEmpty ? "no requirement" : parts.joined(separator: ", ")
    }
}
