/// How a ``SessionService`` binds new sessions to a DPoP key (RFC 9449), set as
/// ``SessionService/Configuration/dpop``: which kind of key a sign-in makes, which kinds of
/// stored keys other programs made it can also sign with, and what to do when a server answers
/// a proof with a bearer token.
///
/// ```swift
/// var configuration = SessionService.Configuration.oauth2(oauth)
/// configuration.dpop = DPoPConfiguration(keys: .eddsa)
/// ```
///
/// A session stored with a key is always signed for, with or without this configuration: it
/// only decides whether new sign-ins (``SessionService/startSession(accountID:signingInWith:)``)
/// make a key.
public struct DPoPConfiguration: Sendable {
    /// What to do when a server answers a request carrying a DPoP proof with a bearer token
    /// (`token_type` `Bearer`), which RFC 9449 §5 allows a server that does not bind tokens to do.
    public enum BearerAnswer: Sendable, Equatable {
        /// Refuse it (the default): at sign-in nothing is stored and the sign-in fails with
        /// ``SessionError/Kind/dpopNotHonoured``; at the refresh of a DPoP-bound session the
        /// session ends (``SignOutReason/dpopNotHonoured``). Turning DPoP on said the binding
        /// matters, and a bearer token works for whoever copies it.
        case refuse
        /// Keep it as a bearer token: the session keeps its key (its refresh token may still be
        /// bound, so token requests keep carrying proofs) and calls send `Authorization: Bearer`.
        case accept
    }

    /// The kind of key a sign-in makes, for example ``DPoPKeyKind/eddsa``.
    public var keys: DPoPKeyKind
    /// The kinds of stored keys other programs sharing the store may have made, besides
    /// ``keys`` and the SDK's own kinds of this platform (``DPoPKeyKind/eddsa``,
    /// `DPoPKeyKind.es256` (Apple platforms)): for example the swift-crypto ES256 kind on Linux, reading keys
    /// an Apple app made. Default: none.
    public var alsoReads: [DPoPKeyKind]
    /// What to do when a server answers a proof with a bearer token. Default ``BearerAnswer/refuse``.
    public var bearerAnswer: BearerAnswer

    /// Binds new sessions to keys of kind `keys`.
    /// - Parameters:
    ///   - keys: The kind of key a sign-in makes.
    ///   - alsoReads: Further kinds of stored keys to sign with. Default: none.
    ///   - bearerAnswer: What to do with a bearer token answered to a proof. Default ``BearerAnswer/refuse``.
    public init(keys: DPoPKeyKind, alsoReads: [DPoPKeyKind] = [], bearerAnswer: BearerAnswer = .refuse) {
        self.keys = keys
        self.alsoReads = alsoReads
        self.bearerAnswer = bearerAnswer
    }
}
