public import SessionEngine

/// One server-controlled input, played by a ``HostileProvider``: how the provider answers,
/// which SDK operation it attacks, what the secure behaviour is, and so which
/// ``HostileInvariant``s apply. ``HostileMode/all`` lists every mode; ``HostileServerKit``
/// runs them against a transport.
///
/// A mode states the behaviour the SDK should have, not the one it has: a 200 body that is not
/// JSON is refused without quoting a byte of it; a `token_type` of `mac` is refused; a
/// verification URI `javascript:` never reaches the front end.
public struct HostileMode: Sendable {
    /// What kind of input a mode varies.
    public enum Category: String, Sendable, CaseIterable, CustomStringConvertible {
        case bodies, statuses, headers, redirects, slowAndSilent, controlCharacters, echoedSecrets, absurdNumbers,
             tokens, verificationURIs, userinfo, discovery, revocation, api, dpop
        /// For example `slow and silent answers`.
        public var description: String {
            switch self {
            case .bodies: "bodies"
            case .statuses: "statuses"
            case .headers: "headers"
            case .redirects: "redirects"
            case .slowAndSilent: "slow and silent answers"
            case .controlCharacters: "control characters"
            case .echoedSecrets: "echoed secrets"
            case .absurdNumbers: "absurd numbers"
            case .tokens: "token types and tokens"
            case .verificationURIs: "verification URIs"
            case .userinfo: "userinfo"
            case .discovery: "discovery"
            case .revocation: "revocation"
            case .api: "API answers"
            case .dpop: "DPoP-bound sessions"
            }
        }
    }

    /// What the operation should end in.
    public enum Result: Sendable {
        /// It fails (the hostile answer is refused).
        case refused
        /// It succeeds (the answer is odd but harmless; the mode guards against over-refusing).
        case succeeds
        /// Either is secure; only the other invariants are checked.
        case either
    }

    /// What should become of the session.
    public enum Session: Sendable {
        /// The operation's default: a refused sign-in stores nothing, a successful one stores
        /// the provider's tokens; a failed refresh keeps the stored credentials; a sign-out
        /// ends the session locally (``SessionEngine/SignOutReason/userSignedOut``).
        case byOperation
        /// The session ends, for this reason, and the store is empty.
        case ended(SignOutReason)
        /// The stored credentials are kept or the session ends, for whatever reason: they are
        /// never replaced by the hostile answer's (a refresh answered with a token the SDK
        /// must refuse, which could be read as passing or as final).
        case notReplaced
        /// The session is kept: the store still holds the same account and DPoP key (its tokens
        /// may have been renewed by the well-behaved token endpoint).
        case kept
        /// Not checked beyond never storing a token the SDK should refuse.
        case unchecked
    }

    /// How long the operation may take.
    public enum Timing: Sendable {
        /// It should end at once: within ``HostileServerKit/promptBound``.
        case prompt
        /// The server is slow or silent: within the transport's timeout for each of `requests`
        /// requests the operation makes to it in turn, and a margin.
        case slow(requests: Int = 1)
    }

    /// Says what a mode attacks, for example `token endpoint: a 200 body form-encoded`.
    public let name: String
    /// What kind of input it varies.
    public let category: Category
    /// The SDK operation it attacks.
    public let operation: HostileOperation
    /// What the operation should end in.
    public let result: Result
    /// What should become of the session.
    public let session: Session
    /// How long the operation may take.
    public let timing: Timing
    /// Whether the answer is over the transport's size limit (the ``HostileInvariant/boundedMemory`` check).
    public let overTheSizeLimit: Bool
    /// The longest a device sign-in may wait on its clock, in seconds (the code's lifetime).
    public let signInClockBound: Double?
    /// How the provider answers.
    public let script: HostileScript
    /// The mode's own check, under ``HostileInvariant/hostileAnswerHandled``: a failure message, or `nil`.
    let check: (@Sendable (HostileOutcome) -> String?)?

    /// A mode.
    /// - Parameters:
    ///   - name: What it attacks (see ``name``).
    ///   - category: What kind of input it varies.
    ///   - operation: The SDK operation it attacks.
    ///   - result: What the operation should end in.
    ///   - session: What should become of the session.
    ///   - timing: How long the operation may take.
    ///   - overTheSizeLimit: Whether the answer is over the transport's size limit.
    ///   - signInClockBound: The longest a device sign-in may wait on its clock.
    ///   - check: The mode's own check.
    ///   - script: Changes the well-behaved provider's script into the hostile one.
    init(_ name: String, _ category: Category, attacks operation: HostileOperation, expecting result: Result,
         session: Session = .byOperation, timing: Timing = .prompt, overTheSizeLimit: Bool = false,
         signInClockBound: Double? = nil, check: (@Sendable (HostileOutcome) -> String?)? = nil,
         script: (inout HostileScript) -> Void) {
        self.name = name
        self.category = category
        self.operation = operation
        self.result = result
        self.session = session
        self.timing = timing
        self.overTheSizeLimit = overTheSizeLimit
        self.signInClockBound = signInClockBound
        self.check = check
        self.script = HostileScript(script)
    }

    /// The invariants the mode checks: the first four always; the session's for every
    /// operation but userinfo; bounded memory for a body over the limit; the answer's
    /// handling unless either result is secure and the mode has no check of its own; the
    /// proofs' for a DPoP-bound session (``HostileScript/dpop``).
    public var invariants: [HostileInvariant] {
        var invariants: [HostileInvariant] = [.noSecretInOutput, .noServerControlCharacter, .finishesWithinBound,
                                              .secretsStayWithTheProvider]
        if operation != .userinfo { invariants.append(.sessionKeptOrEndedRightly) }
        if overTheSizeLimit { invariants.append(.boundedMemory) }
        if result != .either || check != nil { invariants.append(.hostileAnswerHandled) }
        if script.dpop { invariants.append(.provesPossessionRightly) }
        return invariants
    }
}

extension HostileMode.Result: Equatable {}
