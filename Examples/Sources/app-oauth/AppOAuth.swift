import ArgumentParser
import CLISupport

/// `app-oauth`: signs in to any OAuth 2.0 / OpenID Connect server from the command line, the
/// way `gh auth login` does, and keeps the session in the other programs' token stores.
@main
struct AppOAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-oauth",
        abstract: "Sign in to any OAuth 2.0 / OpenID Connect server: browser, device code or client credentials.",
        discussion: """
            sign-in remembers the issuer, the client and the flow beside the store (a \
            .profile.json file, nothing secret in it); the other commands read them from there. \
            The session is kept encrypted by default (--store encrypted, \
            $XDG_CONFIG_HOME/app-sdk/oauth-credentials.enc).

            Other programs get the token through their credential helpers (add the store \
            options when they are not the defaults):
              git config --global credential.https://git.example.com.helper \\
                '!app-oauth git-credential --host git.example.com'
              kubectl: a kubeconfig user's exec runs app-oauth kubectl-credential (its --help shows how)

            \(ProgramHelp.storeFooter)
            """,
        subcommands: [
            OAuthSignInCommand.self,
            OAuthWhoAmICommand.self,
            OAuthStatusCommand.self,
            OAuthTokenCommand.self,
            OAuthGitCredentialCommand.self,
            OAuthKubectlCredentialCommand.self,
            OAuthSignOutCommand.self,
        ]
    )
}
