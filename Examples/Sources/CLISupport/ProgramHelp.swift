/// The text the programs end their `--help` with: environment and exit codes.
public enum ProgramHelp {
    public static let footer = """
        Options (--server, --store, --json, ...) go after the command: `\(Program.name) whoami --json`.

        \(Environment.helpText)

        \(ExitStatus.helpTable)
        """

    /// For a program without `--server` (`app-oauth`, whose server is the issuer it signed in
    /// with): where options go, the store's variables and the exit codes.
    public static let storeFooter = """
        Options (--store, --key-file, --json, ...) go after the command: `\(Program.name) status --json`.

        ENVIRONMENT:
          APP_STORE, APP_STORE_PATH, APP_STORE_KEY_FILE, APP_STORE_PASSPHRASE, APP_DATABASE_URL,
          APP_STORE_ACCOUNT, APP_TRANSPORT: as for app-member (see its --help)
          BROWSER: the browser sign-in's opener (as xdg-open reads it), else xdg-open or open

        \(ExitStatus.oauthHelpTable)
        """
}
