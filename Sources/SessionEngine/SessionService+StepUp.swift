import Foundation
import NetworkService

// Step-up authentication (RFC 9470): a resource's 401 `insufficient_user_authentication` is
// no refresh trigger (NetworkError.isStepUpChallenge keeps it out of every
// AuthenticationFailurePolicy), but a SessionError and an event; a new sign-in at the level
// asked for replaces the tokens of the same account only.

extension SessionService {
    /// The account a sign-in inside ``signInAgain(_:)`` must be for; `nil` outside one.
    @TaskLocal static var accountSigningInAgain: String?

    /// The error a call throws when `thrown` (a `NetworkError`, or a ``ResponseStatusError``) is
    /// a step-up challenge to the session of `accountID`, after sending
    /// ``SessionEvent/stepUpRequired(accountID:requirement:)``; `nil` for any other error.
    func stepUpRequired(by thrown: any Error, accountID: String) -> SessionError? {
        guard let failure = (thrown as? NetworkError) ?? (thrown as? ResponseStatusError)?.networkError,
              failure.isStepUpChallenge else { return nil }
        let requirement: AuthenticationRequirement?
        let underlying: any Error
        do {
            requirement = AuthenticationRequirement(try failure.stepUpChallenge() ?? StepUpChallenge(scheme: nil))
            underlying = thrown
        } catch {
            requirement = nil
            underlying = error
        }
        broadcaster.send(.stepUpRequired(accountID: accountID, requirement: requirement))
        return SessionError(stepUp: requirement, underlying: underlying)
    }

    /// Runs `signIn`, a new sign-in of the account signed in now at the level a resource asked
    /// for (``SessionError/Kind/stepUpRequired``), and keeps its tokens in place of the
    /// session's only when they are that account's.
    ///
    /// `signIn` is any sign-in that ends in a session start of this service:
    /// ``startSession(tokens:accountID:)``, ``startSession(accountID:signingInWith:)``, or
    /// OAuthSignIn's `signIn(with:)` (which OAuthSignIn's `signInAgain(with:)` wraps). Inside
    /// it, a session start for another account throws ``SessionError/Kind/accountMismatch``
    /// and stores nothing: the session signed in before is kept, tokens and DPoP key. For the
    /// same account the new tokens replace the old (``SessionEvent/signedIn(accountID:)`` is
    /// sent), and a DPoP-bound sign-in binds them to a new key, as every sign-in does.
    ///
    /// ```swift
    /// do {
    ///     try await service.request { try await PaymentsAPI.pay(order, server: $0, accessToken: $1) }
    /// } catch let error as SessionError where error.kind == .stepUpRequired {
    ///     let requirement = error.authenticationRequirement ?? AuthenticationRequirement()
    ///     try await service.signInAgain(with: .browser(provider, scopes: ["openid"], open: open).requiring(requirement))
    /// }
    /// ```
    ///
    /// - Returns: What `signIn` returns.
    /// - Throws: ``SessionError/Kind/notSignedIn`` when no session is stored (sign in instead);
    ///   ``SessionError/Kind/accountMismatch`` when the sign-in was another account's (or the
    ///   store came to hold another account's session meanwhile); whatever `signIn` throws.
    public func signInAgain<T>(_ signIn: () async throws -> T) async throws -> T {
        guard let accountID = try await signedInAccountID() else { throw SessionError(.notSignedIn) }
        return try await Self.$accountSigningInAgain.withValue(accountID) { try await signIn() }
    }

    /// Throws ``SessionError/Kind/accountMismatch`` when a sign-in inside ``signInAgain(_:)``
    /// (for `expected`) is starting a session of `accountID`, or found `stored` in the store.
    static func checkSigningInAgain(as accountID: String, stored: String??) throws(SessionError) {
        guard let expected = accountSigningInAgain else { return }
        if accountID != expected {
            throw SessionError(.accountMismatch, detail: "the new sign-in is of another account than the one signed in; "
                + "nothing was stored, the session signed in is kept")
        }
        if let stored, stored != expected {
            throw SessionError(.accountMismatch, detail: "the token store no longer holds the session of the account that "
                + "was to sign in again (another program signed out or in meanwhile); nothing was stored")
        }
    }
}
