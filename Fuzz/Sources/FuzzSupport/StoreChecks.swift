public import TokenStore

/// The kinds an opener may fail with on bytes from outside: anything else (an I/O or key
/// error from reading bytes in memory) is a finding.
public let readingErrorKinds: Set<TokenStoreError.Kind> = [.unreadable, .decryptionFailed, .unsupportedFormatVersion]

/// `credentials` sealed by `sealer` and opened again: they must come back equal.
public func requireRoundTrip(_ credentials: Credentials, through sealer: CredentialsSealer, binding: String? = nil) async {
    do {
        if let binding {
            let bytes = try sealer.seal(credentials, boundTo: binding)
            let reopened = try await sealer.open(bytes, boundTo: binding, acceptingUnbound: false)
            require(reopened == credentials, "credentials sealed bound and opened again differ")
        } else {
            let reopened = try await sealer.open(try sealer.seal(credentials))
            require(reopened == credentials, "credentials sealed and opened again differ")
        }
    } catch {
        // Writing may refuse what reading accepted only with `.invalidCredentials` (a date
        // that is not finite); anything else is a finding.
        require(error.kind == .invalidCredentials, "credentials that opened do not seal and open again: \(error)")
    }
}
