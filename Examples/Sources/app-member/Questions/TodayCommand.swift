import AppRepository
import ArgumentParser
import CLISupport

/// `today`: today's question.
struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "today", abstract: "Show today's question.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await QuestionAPI.fetchToday(server: $0, accessToken: $1) })
        }
    }
}
