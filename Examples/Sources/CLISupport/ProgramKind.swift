/// What distinguishes the two programs where they share a command.
public protocol ProgramKind: Sendable {
    /// Whether the program is for admins only (its sign-in refuses other members).
    static var isAdminOnly: Bool { get }
}

/// `app-member`.
public enum MemberProgram: ProgramKind {
    public static let isAdminOnly = false
}

/// `app-admin`.
public enum AdminProgram: ProgramKind {
    public static let isAdminOnly = true
}
