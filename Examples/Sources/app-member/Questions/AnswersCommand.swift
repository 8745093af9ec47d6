import AppRepository
import ArgumentParser
import CLISupport

/// `answers`: a page of one question's answers.
struct AnswersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "answers", abstract: "List a question's answers, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    @Argument(help: "The question's id.")
    var questionID: Int

    func run() async throws {
        try await Runner.run(global) { context in
            let answers = try await context.service.request { try await AnswerAPI.fetchList(questionID: questionID, threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) }
            try context.output.show(answers)
        }
    }
}
