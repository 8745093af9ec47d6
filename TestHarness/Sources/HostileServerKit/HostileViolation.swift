/// An invariant a mode broke, and how.
public struct HostileViolation: Sendable, CustomStringConvertible {
    /// The mode's name.
    public let mode: String
    /// The invariant.
    public let invariant: HostileInvariant
    /// What happened, with every secret masked.
    public let message: String

    /// For example `token endpoint: a 200 body form-encoded — no secret in any output: …`.
    public var description: String { "\(mode) — \(invariant): \(message)" }
}
