import TokenStore

/// Rotated credentials the store did not take (it could not, or a sign-out overtook the
/// refresh), the stored ones they replace, and the session generation they belong to.
struct UnsavedCredentials: Sendable, Equatable {
    let replaced: Credentials
    let renewed: Credentials
    let generation: Int
}
