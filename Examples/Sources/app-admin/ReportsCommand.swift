import AppRepository
import ArgumentParser
import CLISupport

/// `reports`: a page of reports, newest first.
struct ReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reports", abstract: "List reports, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var page: PageOptions

    func run() async throws {
        try await Runner.run(global, requiresAdmin: true) { context in
            try context.output.show(try await context.service.request { try await AdminAPI.fetchReports(threshold: page.threshold, pageSize: page.pageSize, server: $0, accessToken: $1) })
        }
    }
}
