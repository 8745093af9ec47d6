import AppRepository
import ArgumentParser
import CLISupport

/// `comments add POST_ID TEXT`.
struct CommentsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Comment on a post.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The post's id.")
    var postID: Int

    @Argument(help: "The comment (1-1000 characters).")
    var text: String

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await CommentAPI.create(postID: postID, content: text, server: $0, accessToken: $1) })
        }
    }
}
