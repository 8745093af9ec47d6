import PostgresNIO
import TokenStore

/// Turns what PostgresNIO throws into ``TokenStoreError``s that name the location and never
/// carry a query's bound values (a `PSQLError` holds the query with its binds, so it is never
/// kept as the underlying error; a ``PostgresTokenStoreFailure`` is).
enum DatabaseErrors {
    /// SQLSTATE classes and codes after which the same call may succeed later: connection
    /// exceptions, insufficient resources, operator intervention (shutdown, restart, cannot
    /// connect now), serialization failures and deadlocks, lock not available.
    private static func isTransient(sqlState: String) -> Bool {
        sqlState.hasPrefix("08") || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P")
            || sqlState == "40001" || sqlState == "40P01" || sqlState == "55P03" || sqlState == "57014"
    }

    /// `read_only_sql_transaction`: a write on a standby, or under `default_transaction_read_only`.
    static let readOnlyTransaction = "25006"

    /// The store error for `error`, met while doing `what`: ``TokenStoreError/Kind/readOnly`` for
    /// a write the database refused as read-only, ``TokenStoreError/Kind/unavailable`` for what
    /// may pass, ``TokenStoreError/Kind/database`` for the rest.
    static func map(_ error: any Error, location: String, doing what: String) -> TokenStoreError {
        if let error = error as? TokenStoreError { return error }
        if error is Statement.ConnectionClosed {
            return TokenStoreError(
                kind: .unavailable, path: location,
                reason: "\(what) failed: the connection to the database closed (the database restarted, or the connection was ended)"
            )
        }
        if error is CancellationError {
            return TokenStoreError(kind: .unavailable, path: location, reason: "\(what) was cancelled")
        }
        guard let error = error as? PSQLError else {
            // The pool's own errors (its circuit breaker, say) and connection errors of lower layers.
            let failure = PostgresTokenStoreFailure(sqlState: nil, serverMessage: nil, clientError: "\(type(of: error))")
            return TokenStoreError(
                kind: .unavailable, path: location,
                reason: "\(what) failed: no usable connection to the database (\(failure))", underlyingError: failure
            )
        }
        let sqlState = error.serverInfo?[.sqlState]
        let failure = PostgresTokenStoreFailure(error)
        if sqlState == readOnlyTransaction {
            return TokenStoreError(
                kind: .readOnly, path: location,
                reason: "\(what) failed: the database is read-only (a standby, or default_transaction_read_only is on), so nothing was changed (\(failure))",
                underlyingError: failure
            )
        }
        if let sqlState {
            let kind: TokenStoreError.Kind = isTransient(sqlState: sqlState) ? .unavailable : .database
            return TokenStoreError(kind: kind, path: location, reason: "\(what) failed: \(failure)", underlyingError: failure)
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .queryCancelled:
            return TokenStoreError(
                kind: .unavailable, path: location,
                reason: "\(what) failed: the connection to the database failed or closed (\(error.code))", underlyingError: failure
            )
        default:
            return TokenStoreError(
                kind: .database, path: location, reason: "\(what) failed: \(error.code)", underlyingError: failure
            )
        }
    }
}

extension PostgresTokenStoreFailure {
    /// What a `PSQLError` says, without its query or binds.
    init(_ error: PSQLError) {
        self.init(sqlState: error.serverInfo?[.sqlState], serverMessage: error.serverInfo?[.message], clientError: error.code.description)
    }
}
