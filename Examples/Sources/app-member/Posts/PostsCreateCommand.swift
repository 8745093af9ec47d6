import AppRepository
import ArgumentParser
import CLISupport

/// `posts create TEXT [--anonymous]`.
struct PostsCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Write a post.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not show your name to others.")
    var anonymous = false

    @Argument(help: "The post (1-1000 characters).")
    var text: String

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await PostAPI.create(content: text, isAnonymous: anonymous, server: $0, accessToken: $1) })
        }
    }
}
