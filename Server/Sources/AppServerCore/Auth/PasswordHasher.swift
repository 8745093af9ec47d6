import Dispatch
import HummingbirdBcrypt

/// bcrypt password hashing, run off Swift's cooperative thread pool (a cost-12 hash takes a
/// noticeable fraction of a second and would otherwise stall other requests).
public struct PasswordHasher: Sendable {
    /// The bcrypt cost factor.
    public let cost: Int
    /// A hash of a random password, verified against when the email is unknown so that an unknown
    /// email and a wrong password take the same time.
    private let decoyHash: String

    /// Creates a hasher with the given cost (4...31).
    public init(cost: Int) {
        self.cost = cost
        self.decoyHash = Bcrypt.hash(RandomToken.make(byteCount: 16), cost: UInt8(cost))
    }

    /// Hashes a password.
    public func hash(_ password: String) async -> String {
        let cost = UInt8(self.cost)
        return await Self.offload { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks a password against a stored hash; with `nil` it spends the same time and answers `false`.
    public func verify(_ password: String, against hash: String?) async -> Bool {
        let decoy = self.decoyHash
        return await Self.offload {
            guard let hash else {
                _ = Bcrypt.verify(password, hash: decoy)
                return false
            }
            return Bcrypt.verify(password, hash: hash)
        }
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: work())
            }
        }
    }
}
