public import TokenStore

extension TokenStoreError.Kind {
    /// The store was given something it cannot use: a database URL it cannot read, for
    /// example. Fix the configuration; retrying does not help.
    public static let invalidConfiguration = Self(rawValue: "invalidConfiguration")
    /// The database answered with an error that retrying will not fix: the login or a
    /// permission was refused, a table has another shape. The underlying error is a
    /// ``PostgresTokenStoreFailure`` with the SQLSTATE.
    public static let database = Self(rawValue: "database")
}
