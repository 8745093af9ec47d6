import ArgumentParser
import CLISupport

/// `app-admin`: what an admin does: read reports and remove what breaks the rules.
@main
struct AppAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-admin",
        abstract: "The admin tool: list reports and remove reported posts, comments and answers.",
        discussion: """
            Every command but sign-in, whoami and sign-out first checks that the signed-in member \
            is an admin and stops with exit code 68 when not.

            \(ProgramHelp.footer)
            """,
        subcommands: [
            SignInCommand<AdminProgram>.self,
            WhoAmICommand.self,
            SignOutCommand.self,
            ReportsCommand.self,
            RemoveCommand.self,
        ]
    )
}
