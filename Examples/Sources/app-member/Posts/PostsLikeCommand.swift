import AppRepository
import ArgumentParser
import CLISupport

/// `posts like ID`: likes a post, or takes the like back.
struct PostsLikeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "like", abstract: "Like a post, or take your like back.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The post's id.")
    var id: Int

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await PostAPI.toggleLike(id: id, server: $0, accessToken: $1) })
        }
    }
}
