import AppRepository
import CLISupport
import SessionEngine
import Testing
import TokenStore

/// What the programs say, and exit with, when the session is over.
@Suite("Session errors, as the programs report them")
struct SessionErrorMappingTests {
    @Test("a session that ended is 'not signed in', with the hint to sign in again")
    func sessionEnded() {
        let error = CLIError(SessionError(.sessionEnded, reason: .refreshTokenRejected(nil)))
        #expect(error.status == .notSignedIn)
        #expect(error.hint == "sign in again")
    }

    @Test("a session that ended while the store could not remove its credentials is 'not signed in', and names the store's error")
    func sessionEndedCredentialsNotRemoved() {
        let storeError = TokenStoreError(kind: .unavailable, path: "postgres://kim@db:5432/app", reason: "the database is down")
        let error = CLIError(SessionError(.sessionEndedCredentialsNotRemoved, reason: .refreshTokenRejected(nil), underlying: storeError))
        #expect(error.status == .notSignedIn)
        #expect(error.hint?.contains("once the token store is reachable") == true)
        #expect(error.description.contains("the database is down"))
    }
}
