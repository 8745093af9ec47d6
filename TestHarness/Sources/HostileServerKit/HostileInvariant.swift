/// What the hostile-server kit checks after each mode. A crash needs no invariant of its
/// own: it ends the test process, and with it the run's summary line.
public enum HostileInvariant: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// No secret the run held or sent (the client secret, an access or refresh token, a
    /// device code), in any encoding the SDK sends one in, appears in anything the SDK
    /// handed back: the error and everything under it, however printed; the session's
    /// records and events; what the front end was given to show.
    case noSecretInOutput
    /// No control character or bidirectional override from the server reaches any text the
    /// SDK hands back (an error, a record, a user code, an account id): nothing can write a
    /// terminal's clipboard, clear its screen or reverse what it shows.
    case noServerControlCharacter
    /// The operation ended within its bound (a little more than the transport's timeout for
    /// a slow or silent server; less for one that answers), and a device sign-in waited no
    /// longer than its code lives.
    case finishesWithinBound
    /// Every request stayed on loopback, on a port a socket can have, and the other origin a
    /// redirect or a document pointed at received no secret.
    case secretsStayWithTheProvider
    /// The session is kept, ended for the right reason, or (after a refused sign-in) never
    /// started; a token the SDK should refuse is never stored.
    case sessionKeptOrEndedRightly
    /// A body over the transport's limit is refused by the limit, and the client stops reading.
    case boundedMemory
    /// The hostile answer is refused (the operation fails), or a harmless one accepted, as the
    /// mode says; with the mode's own check where it has one.
    case hostileAnswerHandled
    /// A DPoP-bound session (RFC 9449) proves rightly: with one key, which it keeps; each proof
    /// names its request (`htm`, `htu`, and `ath` for the token it carries) and holds only a
    /// nonce the server gave that a header can carry; a request is sent again at most once for
    /// a nonce challenge; no proof goes to another origin.
    case provesPossessionRightly

    /// For example `no secret in any output`.
    public var description: String {
        switch self {
        case .noSecretInOutput: "no secret in any output"
        case .noServerControlCharacter: "no control character from the server"
        case .finishesWithinBound: "finishes within its bound"
        case .secretsStayWithTheProvider: "secrets stay with the provider, on loopback"
        case .sessionKeptOrEndedRightly: "session kept or ended rightly"
        case .boundedMemory: "bounded memory"
        case .hostileAnswerHandled: "hostile answer handled"
        case .provesPossessionRightly: "proves possession rightly"
        }
    }

    /// In declaration order.
    public static func < (lhs: HostileInvariant, rhs: HostileInvariant) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
