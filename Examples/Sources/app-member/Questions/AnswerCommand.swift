import AppRepository
import ArgumentParser
import CLISupport

/// `answer`: answers a question (today's by default).
struct AnswerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Answer a question: today's, or the one given with --question."
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("question"), help: ArgumentHelp("The question's id (default: today's).", valueName: "id"))
    var questionID: Int?

    @Argument(help: "The answer (1-1000 characters).")
    var text: String

    func run() async throws {
        try await Runner.run(global) { context in
            let service = context.service
            let id: Int
            if let questionID {
                id = questionID
            } else {
                id = try await service.request { try await QuestionAPI.fetchToday(server: $0, accessToken: $1) }.id
            }
            try context.output.show(try await service.request { try await AnswerAPI.create(questionID: id, content: text, server: $0, accessToken: $1) })
        }
    }
}
