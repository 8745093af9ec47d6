import AppRepository
import ArgumentParser
import CLISupport

/// `questions`: a page of questions, newest first.
struct QuestionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "questions", abstract: "List questions, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await QuestionAPI.fetchList(threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) })
        }
    }
}
