/// The text both programs end their `--help` with: environment and exit codes.
public enum ProgramHelp {
    public static let footer = """
        Options (--server, --store, --json, ...) go after the command: `\(Program.name) whoami --json`.

        \(Environment.helpText)

        \(ExitStatus.helpTable)
        """
}
