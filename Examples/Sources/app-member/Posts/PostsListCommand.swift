import AppRepository
import ArgumentParser
import CLISupport

/// `posts list`: a page of posts, newest first.
struct PostsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List posts, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await PostAPI.fetchList(threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) })
        }
    }
}
