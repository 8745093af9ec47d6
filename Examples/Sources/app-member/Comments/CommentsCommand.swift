import ArgumentParser

/// `comments`: comments on a post.
struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments",
        abstract: "Comments on posts: list, add, delete.",
        subcommands: [CommentsListCommand.self, CommentsAddCommand.self, CommentsDeleteCommand.self]
    )
}
