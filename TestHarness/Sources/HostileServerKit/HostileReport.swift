/// What a run of the kit found: the modes, how many checks ran, what broke.
public struct HostileReport: Sendable {
    /// The transport's name, for example `URLSession`.
    public let transport: String
    /// How many modes ran.
    public let modes: Int
    /// How many (mode, invariant) checks ran.
    public let checks: Int
    /// The invariants broken.
    public let violations: [HostileViolation]

    /// The line `scripts/test` collects, for example
    /// `hostile-server kit: 97 modes × 1 transport (URLSession) × 7 invariants, 512 checks, 0 violations`.
    public var summaryLine: String {
        let failing = Set(violations.map(\.mode)).count
        return "hostile-server kit: \(modes) modes × 1 transport (\(transport)) × \(HostileInvariant.allCases.count) invariants, "
            + "\(checks) checks, \(violations.count) violation\(violations.count == 1 ? "" : "s")"
            + (failing == 0 ? "" : " in \(failing) mode\(failing == 1 ? "" : "s")")
    }
}
