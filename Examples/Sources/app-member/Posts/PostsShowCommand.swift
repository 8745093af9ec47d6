import AppRepository
import ArgumentParser
import CLISupport

/// `posts show ID`: one post.
struct PostsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a post.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The post's id.")
    var id: Int

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await PostAPI.fetch(id: id, server: $0, accessToken: $1) })
        }
    }
}
