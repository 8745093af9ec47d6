import AppRepository
public import ArgumentParser

/// `whoami`: the signed-in member, as the server sees them.
public struct WhoAmICommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the signed-in member (and their role)."
    )

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public func run() async throws {
        try await Runner.run(global) { context in
            try context.output.show(try await context.service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) })
        }
    }
}
