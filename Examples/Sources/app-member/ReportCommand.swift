import AppRepository
import ArgumentParser
import CLISupport

/// `report`: reports a post, comment or answer to the admins.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report a post, comment or answer to the admins.",
        discussion: "Example: app-member report post 12 \"spam\""
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to report: post, comment or answer.")
    var kind: ContentKind

    @Argument(help: "Its id.")
    var id: Int

    @Argument(help: "Why (1-500 characters).")
    var reason: String

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await ReportAPI.create(targetType: kind.targetType, targetID: id, reason: reason, server: $0, accessToken: $1) })
        }
    }
}
