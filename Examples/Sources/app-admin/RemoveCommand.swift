import ArgumentParser
import CLISupport

/// `remove KIND ID`: deletes anyone's post, comment or answer.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a post, comment or answer (for example one that was reported).",
        discussion: "Example: app-admin remove post 12"
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to remove: post, comment or answer.")
    var kind: ContentKind

    @Argument(help: "Its id.")
    var id: Int

    func run() async throws {
        try await Runner.run(global, requiresAdmin: true) { context in
            try await kind.delete(id: id, with: context.service)
            let deleted = Deleted(kind, id: id)
            try context.output.result(deleted) { "removed \(kind.rawValue) #\(id)" }
        }
    }
}
