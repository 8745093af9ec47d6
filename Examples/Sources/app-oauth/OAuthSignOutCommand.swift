import ArgumentParser
import CLISupport
import Foundation
import OAuthSignIn
import SessionEngine
import TokenStore

/// `sign-out`: revokes the session at the server (RFC 7009) and clears the store and the profile.
///
/// Signing out here always works: when the server cannot be told (no profile names it, its
/// discovery fails or names another issuer, the client secret file is gone, the revocation
/// fails), the session is still removed from the store, and a message says the server was not
/// told. Only a store that cannot be read stops it (exit 66): its session cannot be ended.
struct OAuthSignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign out: revoke the tokens at the server and clear the store.",
        discussion: """
            Signing out locally always works, even offline: when the server cannot be reached \
            (or its discovery document names another issuer), the session is removed here and \
            a message on stderr says the server could not be told; the tokens then stay valid \
            at the server until they expire. The exit status is 0 either way; --json says \
            whether the server confirmed (serverConfirmed).
            """
    )

    @OptionGroup var global: StoreOptions

    struct Outcome: Encodable {
        let wasSignedIn: Bool
        let serverConfirmed: Bool
    }

    func run() async throws {
        try await OAuthContext.run(global, purpose: .endSession) { context in
            // The profile names the server to tell; without one, the session still ends here.
            var profile: OAuthProfile?
            var state = ProfileBoundStore.ProfileState.none
            var whyNotTold = "no sign-in profile names its server (\(context.profileURL.path) is missing)"
            do {
                profile = try OAuthProfile.load(context.profileURL)
                if let profile { state = .profile(profile.identity) }
            } catch {
                state = .damaged
                whyNotTold = Self.describe(error)
            }
            let bound = context.boundStore(.using(state))
            var session: SessionService?
            if let profile {
                do {
                    session = try context.session(profile, provider: try await context.provider(profile), tokenStore: bound)
                } catch {
                    whyNotTold = Self.describe(error)
                }
            }

            let outcome: Outcome
            do {
                if let session {
                    let result = try await session.signOut()
                    if let error = result.serverError {
                        Output.writeError("app-oauth: signed out here; the server could not be told: \(Self.describe(error))")
                    }
                    if let error = result.localError {
                        Output.writeError("app-oauth: the session ended on the server, but the local copy stays: it could not be removed: \(error)")
                    }
                    outcome = Outcome(wasSignedIn: result.wasSignedIn, serverConfirmed: result.serverConfirmed)
                } else {
                    let wasSignedIn = try await Self.signOutLocally(bound)
                    if wasSignedIn {
                        Output.writeError("app-oauth: signed out here; the server could not be told: \(whyNotTold)")
                    }
                    outcome = Outcome(wasSignedIn: wasSignedIn, serverConfirmed: false)
                }
            } catch let error as TokenStoreError where UnreadableStore.unreadableKinds.contains(error.kind) {
                // The session in it cannot be read, so it cannot be ended: say so, and leave the
                // store (and the profile) as they are; sign-in moves it aside.
                throw UnreadableStore.signOutFailure(error)
            }
            // Tidying only (a profile left by a session the server ended): signed out either way.
            _ = try? await bound.removeProfileWithoutSession()
            if bound.replaced {
                Output.writeError("app-oauth: another sign-in replaced the session while signing out: the new session is kept (run app-oauth sign-out again to end it)")
            }
            try context.output.result(outcome) {
                outcome.wasSignedIn ? "signed out" : "was not signed in"
            }
        }
    }

    /// Removes the stored session (and its profile) without telling the server; whether there
    /// was one.
    static func signOutLocally(_ store: ProfileBoundStore) async throws -> Bool {
        try await store.withExclusiveAccess {
            guard try await store.load() != nil else { return false }
            try await store.clear()
            return true
        }
    }

    /// Why the server could not be told, in one line without secrets.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as SignInError: TerminalText.safe(error.localizedDescription)
        default: CLIError(error).message
        }
    }
}
