import TokenStore

extension Credentials {
    /// What tells these credentials from those that replaced them: the refresh token, or, for a
    /// session without one (client credentials, whose stored refresh token is empty), the
    /// access token. Without it, every such session would look like every other.
    var identifyingToken: String { refreshToken.isEmpty ? accessToken.rawValue : refreshToken }
}
