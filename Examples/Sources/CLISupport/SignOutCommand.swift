import AppRepository
public import ArgumentParser
import SessionEngine
import TokenStore

/// `sign-out`: ends the session here (the store is cleared) and on the server.
public struct SignOutCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign out: clear the store and end the session on the server.",
        discussion: "Signing out locally always works, even offline; the server is told when it can be reached."
    )

    @OptionGroup public var global: GlobalOptions

    public init() {}

    struct Outcome: Encodable {
        let wasSignedIn: Bool
        let serverConfirmed: Bool
    }

    public func run() async throws {
        try await Runner.run(global, purpose: .endSession) { context in
            let result: SignOutResult
            do {
                result = try await context.service.signOut()
            } catch let error as TokenStoreError where UnreadableStore.unreadableKinds.contains(error.kind) {
                // The session in it cannot be read, so it cannot be ended at the server: say so,
                // and leave the store as it is (sign-in moves it aside).
                throw UnreadableStore.signOutFailure(error)
            }
            if let error = result.serverError {
                Output.writeError("\(Program.name): signed out here; the server could not be told: \(error)")
            }
            if let error = result.localError {
                Output.writeError("\(Program.name): the session ended on the server, but the local copy stays: it could not be removed: \(error)")
            }
            try context.output.result(Outcome(wasSignedIn: result.wasSignedIn, serverConfirmed: result.serverConfirmed)) {
                result.wasSignedIn ? "signed out" : "was not signed in"
            }
        }
    }
}
