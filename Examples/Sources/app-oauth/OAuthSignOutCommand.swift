import ArgumentParser
import CLISupport
import Foundation
import SessionEngine

/// `sign-out`: revokes the session at the server (RFC 7009) and clears the store and the profile.
struct OAuthSignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign out: revoke the tokens at the server and clear the store.",
        discussion: "Signing out locally always works, even offline; the server is told when it can be reached."
    )

    @OptionGroup var global: StoreOptions

    struct Outcome: Encodable {
        let wasSignedIn: Bool
        let serverConfirmed: Bool
    }

    func run() async throws {
        try await OAuthContext.run(global, purpose: .endSession) { context in
            guard let profile = try OAuthProfile.load(context.profileURL) else {
                try await context.store.store.clear()
                try context.output.result(Outcome(wasSignedIn: false, serverConfirmed: false)) { "was not signed in" }
                return
            }
            let provider = try await context.provider(profile)
            let session = try context.session(profile, provider: provider)
            let result = try await session.signOut()
            if let error = result.serverError {
                Output.writeError("app-oauth: signed out here; the server could not be told: \(error)")
            }
            try? FileManager.default.removeItem(at: context.profileURL)
            try context.output.result(Outcome(wasSignedIn: result.wasSignedIn, serverConfirmed: result.serverConfirmed)) {
                result.wasSignedIn ? "signed out" : "was not signed in"
            }
        }
    }
}
