import Foundation
import Logging

/// Brings the emails of a database written before emails were normalized into the normalized
/// form (``Validation/normalizedEmail(_:)``: lower case, Unicode NFC), at every start; once done,
/// it only reads the rows that are not plain lower-case ASCII.
///
/// Two members whose emails are canonically equal (the same address spelled in NFC and in NFD:
/// both could sign up before) cannot both have the normalized form, which is unique. The one that
/// already has it, or else the first one found, gets it; the other keeps its stored spelling and
/// can no longer sign in (sign-in looks up the normalized form, which finds the first). Nothing
/// is deleted or merged: the server logs a warning naming both member ids (never the emails),
/// for an operator to decide which account to delete.
enum EmailNormalization {
    /// Normalizes every stored email that is not normalized yet, in one transaction.
    /// - Returns: the number of emails changed and of members left as they were because of a collision.
    @discardableResult
    static func run(_ database: Database, logger: Logger) async throws -> (normalized: Int, collisions: Int) {
        let (normalized, collisions) = try await database.transaction { transaction in
            var normalized = 0
            var collisions: [(kept: UUID, holder: UUID)] = []
            for member in try await MemberStore.emailsToNormalize(in: transaction) {
                let email = Validation.normalizedEmail(member.email)
                guard !Validation.sameBytes(email, member.email) else { continue }
                if let holder = try await MemberStore.find(email: email, in: transaction), holder.id != member.id {
                    collisions.append((member.id, holder.id))
                    continue
                }
                try await MemberStore.updateEmail(id: member.id, email: email, in: transaction)
                normalized += 1
            }
            return (normalized, collisions)
        }
        if normalized > 0 {
            logger.notice("normalized stored emails (lower case, Unicode NFC)", metadata: ["count": "\(normalized)"])
        }
        for collision in collisions {
            logger.warning(
                "two members have the same email in different Unicode spellings; the first cannot sign in until one is deleted",
                metadata: ["member": "\(collision.kept.dbString)", "signsInAs": "\(collision.holder.dbString)"]
            )
        }
        return (normalized, collisions.count)
    }
}
