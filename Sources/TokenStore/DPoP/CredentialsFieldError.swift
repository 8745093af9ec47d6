/// A stored field of ``Credentials`` that is present but wrong (a DPoP key's `d` of the wrong
/// length, say): which field, and why, never its value. `CredentialsFile` turns it into a
/// ``TokenStoreError`` of kind ``TokenStoreError/Kind/unreadable`` naming the store.
struct CredentialsFieldError: Error, Sendable, CustomStringConvertible {
    /// The field's path inside `credentials`, such as `dpopKey.d`.
    let field: String
    /// What is wrong, without the value: `is 31 bytes, not 32`.
    let problem: String

    /// "`credentials.dpopKey.d` is 31 bytes, not 32".
    var description: String { "`credentials.\(field)` \(problem)" }
}
