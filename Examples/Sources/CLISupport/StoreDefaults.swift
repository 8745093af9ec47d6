/// The store a program keeps its session in when no option or variable names one, as its
/// `--help` says it: `app-member` and `app-admin` a plain file (`credentials.json`), `app-oauth`
/// an encrypted file of its own (`oauth-credentials.enc`; app-oauth's `OAuthContext` applies it).
public enum StoreDefaults {
    /// Whether the running program is `app-oauth` (by its name, as ``Program/name`` reads it).
    static var isOAuthProgram: Bool { Program.name == "app-oauth" }

    /// The default store kind, as help names it.
    static var kind: String { isOAuthProgram ? "encrypted" : "file" }

    /// The default store file, as help names it.
    static var file: String {
        isOAuthProgram
            ? "$XDG_CONFIG_HOME/app-sdk/oauth-credentials.enc, or oauth-credentials.json for --store file"
            : "$XDG_CONFIG_HOME/app-sdk/credentials.json or .enc"
    }
}
