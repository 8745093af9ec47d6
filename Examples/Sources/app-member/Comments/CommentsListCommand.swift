import AppRepository
import ArgumentParser
import CLISupport

/// `comments list POST_ID`.
struct CommentsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List a post's comments, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    @Argument(help: "The post's id.")
    var postID: Int

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await CommentAPI.fetchList(postID: postID, threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) })
        }
    }
}
