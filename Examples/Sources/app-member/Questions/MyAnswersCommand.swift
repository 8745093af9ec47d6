import AppRepository
import ArgumentParser
import CLISupport

/// `my-answers`: a page of the signed-in member's answers.
struct MyAnswersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "my-answers", abstract: "List your answers, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await AnswerAPI.fetchListOfMine(threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) })
        }
    }
}
