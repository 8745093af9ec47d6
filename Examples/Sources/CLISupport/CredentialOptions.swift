public import ArgumentParser

/// The email and password of sign-in and sign-up: from flags, the environment
/// (`APP_EMAIL`, `APP_PASSWORD`, for CI), or asked on the terminal (the password without
/// echo). The password is never a flag value, where `ps` would show it.
public struct CredentialOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("The account's email address. [APP_EMAIL]", valueName: "address"))
    public var email: String?

    @Flag(help: "Read the password from the first line of standard input. [else APP_PASSWORD, else a prompt]")
    public var passwordStdin = false

    public init() {}

    /// The email: the flag, `APP_EMAIL`, or a prompt on the terminal.
    public func resolvedEmail() throws(CLIError) -> String {
        if let email = email ?? Environment.value(Environment.email) { return email }
        guard Terminal.isInteractive, !passwordStdin else {
            throw .usage("no email address given", hint: "pass --email or set APP_EMAIL")
        }
        guard let typed = Terminal.readLine(prompt: "Email: "), !typed.isEmpty else {
            throw .usage("no email address entered")
        }
        return typed
    }

    /// The password: standard input with `--password-stdin`, `APP_PASSWORD`, or a prompt
    /// without echo (twice when `confirm`, for a new account).
    public func resolvedPassword(confirm: Bool = false) throws(CLIError) -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw .usage("--password-stdin: standard input has no password line")
            }
            return line
        }
        if let password = Environment.value(Environment.password) { return password }
        guard Terminal.isInteractive else {
            throw .usage("no password given, and there is no terminal to ask on",
                         hint: "set APP_PASSWORD or pipe it with --password-stdin")
        }
        guard let typed = try Terminal.readSecret(prompt: "Password: "), !typed.isEmpty else {
            throw .usage("no password entered")
        }
        if confirm {
            guard try Terminal.readSecret(prompt: "Repeat the password: ") == typed else {
                throw .usage("the two passwords differ")
            }
        }
        return typed
    }
}
