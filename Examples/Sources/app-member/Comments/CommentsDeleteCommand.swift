import ArgumentParser
import CLISupport

/// `comments delete ID`: your own comment.
struct CommentsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one of your comments.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The comment's id.")
    var id: Int

    func run() async throws {
        try await Runner.run(global) { context in
            try await ContentKind.comment.delete(id: id, with: context.service)
            let deleted = Deleted(.comment, id: id)
            try context.output.result(deleted) { deleted.humanText }
        }
    }
}
