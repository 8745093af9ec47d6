import TokenStore

/// What a refresh brought its callers: the credentials to call with, and whether the refresh
/// got them from the server itself rather than finding them in the store (saved there by
/// another caller or program that refreshed first).
struct Renewal: Sendable {
    /// The credentials to call with.
    let credentials: Credentials
    /// Whether this refresh exchanged the refresh token with the server. Only then does a 401 on
    /// the new token say the server refuses what it has just issued (rule 2 of the SessionRules article);
    /// tokens found in the store may have expired while the call waited to be sent, and a 401 on
    /// them is answered by one refresh, as it is for any token read from the store.
    let askedServer: Bool
}
