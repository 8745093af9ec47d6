import ArgumentParser
import CLISupport
import Foundation
import OAuthSignIn
import SessionEngine
import TokenStore

/// `sign-in`: signs in with the browser (authorization code with PKCE, loopback redirect),
/// a code entered on another device, or the client's own credentials.
struct OAuthSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in to an OAuth 2.0 / OpenID Connect server and keep the session.",
        discussion: """
            --browser (the default) prints the authorization URL on stderr and opens it \
            (xdg-open or open); the server redirects the browser back to 127.0.0.1. --device \
            prints a code to enter at a URL on any device. --client-credentials signs the \
            client in as itself (a job, a CI pipeline): it needs --client-secret-file. --dpop \
            binds the session to a key made now and kept in the store with the tokens (RFC 9449): \
            a token copied without it is refused by a server that binds tokens; the server must \
            list the key's algorithm in its discovery document.
            """
    )

    /// The flow to sign in with.
    enum Flow: String, EnumerableFlag {
        case browser, device
        case clientCredentials = "client-credentials"
    }

    @Option(help: ArgumentHelp("The issuer URL (discovery at ISSUER/.well-known/openid-configuration).", valueName: "url"))
    var issuer: String

    @Option(name: .customLong("client-id"), help: ArgumentHelp("The client id registered with the server.", valueName: "id"))
    var clientID: String

    @Option(name: .customLong("client-secret-file"),
            help: ArgumentHelp("A file whose first line is the client secret (confidential clients; never on the command line).", valueName: "path"))
    var clientSecretFile: String?

    @Flag(help: "How to sign in.")
    var flow: Flow = .browser

    @Option(name: .customLong("scope"), help: ArgumentHelp("A scope to ask for; repeat for several. [default: openid profile, none for --client-credentials]", valueName: "scope"))
    var scopes: [String] = []

    @Option(name: .customLong("redirect-port"), help: ArgumentHelp(
        "--browser: listen on this port of 127.0.0.1, for a server that matches redirect URIs exactly (register http://127.0.0.1:PORT/callback). [default: a port the system picks, for servers that accept any port of http://127.0.0.1/callback]",
        valueName: "port"))
    var redirectPort: UInt16?

    @Flag(name: .customLong("move-aside"), help: ArgumentHelp(
        "When the store does not decrypt, move it aside (kept, never deleted) and sign in. Only when the passphrase or key is right: a wrong one looks the same. A damaged store (truncated, foreign, another version) is moved aside without it; either way the program says where it went."))
    var moveAside = false

    // A string, checked in validate(): a kind it does not know is then named in the error
    // (parsed as DPoPKeyChoice, `--dpop rs256` would read as `--dpop` and a stray `rs256`).
    @Option(name: .customLong("dpop"), defaultAsFlag: DPoPKeyChoice.eddsa.rawValue, parsing: .next, help: DPoPKeyChoice.help)
    var dpopKind: String?

    /// The kind of DPoP key `--dpop` asks for, `nil` without it (validate() checked the name).
    var dpop: DPoPKeyChoice? { dpopKind.flatMap(DPoPKeyChoice.init(rawValue:)) }

    @OptionGroup var global: StoreOptions

    func validate() throws {
        _ = try DPoPKeyChoice.validated(dpopKind)
        guard let url = URL(string: issuer), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw ValidationError("--issuer must be an http(s) URL, got \(issuer)")
        }
        guard !clientID.isEmpty else { throw ValidationError("--client-id must not be empty") }
        if flow == .clientCredentials, clientSecretFile == nil {
            throw ValidationError("--client-credentials needs --client-secret-file")
        }
        if let redirectPort {
            guard flow == .browser else { throw ValidationError("--redirect-port is for --browser") }
            guard redirectPort > 0 else { throw ValidationError("--redirect-port must be within 1–65535") }
        }
    }

    /// How long the browser flow waits for the browser to come back: `--timeout` when given
    /// (it covers the wait too), else two minutes.
    var browserWait: Duration {
        global.timeoutWasGiven ? .milliseconds(Int64(global.timeout * 1000)) : .seconds(120)
    }

    struct Outcome: Encodable {
        let signedIn: Bool
        let accountID: String
        let flow: String
        let issuer: String
        let scope: String?
        /// The DPoP key's algorithm and thumbprint, `nil` for a bearer session.
        let dpop: DPoPStatus?
    }

    func run() async throws {
        try await OAuthContext.run(global, purpose: .startSession) { context in
            guard let issuerURL = URL(string: issuer) else { throw CLIError(.usage, "--issuer is not a URL: \(issuer)") }
            let secretFile = clientSecretFile.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath).path }
            var profile = OAuthProfile(issuer: issuerURL, clientID: clientID, mode: mode, scopes: resolvedScopes,
                                       clientSecretFile: secretFile, dpop: dpop)
            try await checkStoreCanBeReplaced(context)
            let provider = try await context.provider(profile)
            // Kept with the session, so that later commands need the provider only to renew.
            profile.metadata = provider.metadata
            profile.discoveredAt = Date()
            // The profile is written with the tokens, inside the store's exclusive section,
            // just before them (ProfileBoundStore): never tokens without their profile. An
            // unreadable store is moved aside first, saying where (MovingAsideTokenStore).
            let bound = context.boundStore(.signingIn(profile))
            var store: any TokenStore = bound
            if let moveAside = context.store.moveAside {
                store = MovingAsideTokenStore.sayingWhere(bound, moveAside: moveAside)
            }
            let session = try context.session(profile, provider: provider, tokenStore: store)
            let result = try await session.signIn(with: signInFlow(provider))
            if let claims = result.idToken?.claims {
                // Known only now: added to the profile unless another sign-in replaced it meanwhile.
                // Signed in either way: without them, whoami shows userinfo or the account id.
                profile.idTokenClaims = claims
                do {
                    try await bound.update(profile)
                } catch {
                    context.output.note("the ID token's claims could not be added to the sign-in profile: \(error)")
                }
            }
            // The key the sign-in stored (its public parts only), as status shows it; signed in
            // all the same when the store cannot be read back (status says it later).
            let binding = dpop == nil ? nil : DPoPStatus((try? await bound.load())?.dpopKey)
            try context.output.result(Outcome(signedIn: true, accountID: result.accountID, flow: flow.rawValue,
                                              issuer: issuer, scope: result.scope, dpop: binding)) {
                "signed in as \(TerminalText.safe(result.accountID)) at \(issuer)" + (binding.map { ", \(DPoPStatus.line($0))" } ?? "")
            }
        }
    }

    /// Stops before the sign-in when the store holds something it must not replace, as
    /// app-member's sign-in does (``UnreadableStore``): a store that does not decrypt is left
    /// alone (66) unless `--move-aside` says the key is right; a damaged one is moved aside by
    /// the sign-in's save, which says where.
    private func checkStoreCanBeReplaced(_ context: OAuthContext) async throws(TokenStoreError) {
        let movesUndecryptable = moveAside
        do {
            _ = try await context.store.store.load()
        } catch {
            guard UnreadableStore.signInMovesAside(error, includingUndecryptable: movesUndecryptable) else { throw error }
            context.output.note("\(error); the sign-in moves it aside")
        }
    }

    private var mode: OAuthProfile.Mode {
        switch flow {
        case .browser: .browser
        case .device: .device
        case .clientCredentials: .clientCredentials
        }
    }

    private var resolvedScopes: [String] {
        if !scopes.isEmpty { return scopes }
        return flow == .clientCredentials ? [] : ["openid", "profile"]
    }

    private func signInFlow(_ provider: OAuthProvider) -> SignInFlow {
        switch flow {
        case .browser:
            let wait = browserWait
            return .browser(provider, scopes: resolvedScopes, redirectPort: redirectPort, timeout: wait) { url in
                Output.writeError("Open this URL in a browser to sign in:\n  \(TerminalText.safe(url.absoluteString))")
                let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first { $0.name == "redirect_uri" }?.value ?? "http://127.0.0.1/callback"
                Output.writeError("""
                    Waiting up to \(Int(wait.components.seconds)) s for the browser to come back to \(redirect) (Ctrl-C stops; --timeout sets the wait).
                    If the provider shows an error page instead (a redirect URI it does not know), register that redirect URI \
                    with it, or register http://127.0.0.1:PORT/callback and pass --redirect-port PORT.
                    """)
                BrowserOpener.open(url)
            }
        case .device:
            return .device(provider, scopes: resolvedScopes) { authorization in
                // The server chose all three: shown with their control characters escaped.
                Output.writeError("To sign in, open \(TerminalText.safe(authorization.verificationURI.absoluteString)) on any device and enter the code \(TerminalText.safe(authorization.userCode))")
                if let complete = authorization.verificationURIComplete {
                    Output.writeError("  (or open \(TerminalText.safe(complete.absoluteString)))")
                }
                Output.writeError("Waiting for the sign-in to be approved...")
            }
        case .clientCredentials:
            return .clientCredentials(provider, scopes: resolvedScopes)
        }
    }
}
