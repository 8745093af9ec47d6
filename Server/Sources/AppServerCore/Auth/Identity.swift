public import Foundation

/// The authenticated caller of a bearer route.
public struct Identity: Sendable, Equatable {
    /// The member's id (`sub`).
    public let memberID: UUID
    /// The session family (`sid`).
    public let sessionID: String
    /// The member's current role, read from the database (not from the token).
    public let role: Role

    /// Creates an identity.
    public init(memberID: UUID, sessionID: String, role: Role) {
        self.memberID = memberID
        self.sessionID = sessionID
        self.role = role
    }

    /// Whether the caller is an administrator.
    public var isAdmin: Bool { role == .admin }

    /// Throws 403 unless the caller wrote the content or is an admin.
    public func requireOwnerOrAdmin(_ authorID: UUID, what: String) throws(APIError) {
        guard authorID == memberID || isAdmin else {
            throw APIError.forbidden("Only the author or an admin may delete this \(what).")
        }
    }
}
