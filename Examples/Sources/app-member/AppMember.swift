import ArgumentParser
import CLISupport

/// `app-member`: what a member of the app does, from the command line.
@main
struct AppMember: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-member",
        abstract: "The app for members: sign in, answer today's question, post, comment, like, report.",
        discussion: ProgramHelp.footer,
        subcommands: [
            SignUpCommand.self,
            SignInCommand<MemberProgram>.self,
            WhoAmICommand.self,
            SignOutCommand.self,
            TodayCommand.self,
            QuestionsCommand.self,
            AnswerCommand.self,
            AnswersCommand.self,
            MyAnswersCommand.self,
            PostsCommand.self,
            CommentsCommand.self,
            ReportCommand.self,
        ]
    )
}
