import ArgumentParser
import CLISupport

/// `posts delete ID`: your own post.
struct PostsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one of your posts.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The post's id.")
    var id: Int

    func run() async throws {
        try await Runner.run(global) { context in
            try await ContentKind.post.delete(id: id, with: context.service)
            let deleted = Deleted(.post, id: id)
            try context.output.result(deleted) { deleted.humanText }
        }
    }
}
