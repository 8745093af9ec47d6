import ArgumentParser

/// `posts`: the board.
struct PostsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posts",
        abstract: "The board: list, show, create, delete and like posts.",
        subcommands: [PostsListCommand.self, PostsShowCommand.self, PostsCreateCommand.self, PostsDeleteCommand.self, PostsLikeCommand.self],
        defaultSubcommand: PostsListCommand.self
    )
}
