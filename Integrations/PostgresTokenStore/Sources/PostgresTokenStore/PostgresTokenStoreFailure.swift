/// What PostgreSQL or the connection reported, as the ``TokenStoreError/underlyingError`` of a
/// `PostgresTokenStore` error: the SQLSTATE and the server's one-line message, or the client's
/// error code. Never a query's bound values, the server's detail line (which may quote a row)
/// or a password.
public struct PostgresTokenStoreFailure: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE the server sent (`28P01`, `42501`, `57P01`, …), if it sent one.
    public var sqlState: String?
    /// The server's primary message, at most 200 characters, if the server sent one.
    public var serverMessage: String?
    /// PostgresNIO's error code (`connectionError`, `serverClosedConnection`, …) or the error's type.
    public var clientError: String

    /// Creates a failure; the store makes these from PostgresNIO's errors.
    public init(sqlState: String?, serverMessage: String?, clientError: String) {
        self.sqlState = sqlState
        self.serverMessage = serverMessage.map { String($0.prefix(200)) }
        self.clientError = clientError
    }

    /// For example `SQLSTATE 42501: permission denied for table app_token_store`.
    public var description: String {
        if let sqlState {
            return "SQLSTATE \(sqlState)" + (serverMessage.map { ": \($0)" } ?? "")
        }
        return clientError
    }
}
