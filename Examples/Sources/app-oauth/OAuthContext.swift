import ArgumentParser
import CLISupport
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

/// What an `app-oauth` command works with: the store (and the profile beside it), the
/// transport, the output; and, once the provider is known, the session.
struct OAuthContext: Sendable {
    let options: StoreOptions
    let output: Output
    let store: OpenedStore
    let transport: CommandTransport
    /// Where the profile lives: beside the store file, or per account for the postgres store.
    let profileURL: URL
    /// The stores bound to the profile that this command's sessions use (see ``session(_:provider:)``).
    private let boundStores = LockedValue<[ProfileBoundStore]>([])

    /// Opens the store the options name (encrypted unless told otherwise, its own default
    /// file, not the one of app-member) and the transport.
    static func open(_ options: StoreOptions, purpose: CommandContext.Purpose) async throws(CLIError) -> OAuthContext {
        var options = options
        if options.store == nil, Environment.string("APP_STORE") == nil {
            options.store = .encrypted
        }
        let kind = try options.resolvedStoreKind()
        guard kind != .memory else {
            throw CLIError(.usage, "app-oauth keeps the session between runs: --store memory would lose it at once",
                           hint: "use --store encrypted (the default), file or postgres")
        }
        if options.storePath == nil, Environment.string("APP_STORE_PATH") == nil {
            options.storePath = StoreLocation.folder
                .appendingPathComponent(kind == .encrypted ? "oauth-credentials.enc" : "oauth-credentials.json").path
        }
        if kind == .encrypted, options.resolvedKeyFile() == nil, Environment.string("APP_STORE_PASSPHRASE") == nil {
            // A first run needs nothing typed (a CI job, a script): the key is a file of 32
            // random bytes beside the store, made 0600 with it. A store made with a passphrase
            // (no key file beside it) is still opened with one.
            let store = options.resolvedStoreURL(for: kind)
            let keyFile = URL(fileURLWithPath: store.path + ".key")
            if FileManager.default.fileExists(atPath: keyFile.path) || !FileManager.default.fileExists(atPath: store.path) {
                options.keyFile = keyFile.path
            }
        }
        let profileURL = kind == .postgres
            ? StoreLocation.folder.appendingPathComponent("oauth-profile-\(options.resolvedAccount()).json")
            : URL(fileURLWithPath: options.resolvedStoreURL(for: kind).path + ".profile.json")
        let transport = CommandTransport.make(try options.resolvedTransportKind(), timeout: options.timeout)
        do throws(CLIError) {
            let store = try await OpenedStore.open(kind, options: options, purpose: purpose)
            return OAuthContext(options: options, output: Output(json: options.json, verbose: options.verbose),
                                store: store, transport: transport, profileURL: profileURL)
        } catch {
            await transport.close()
            throw error
        }
    }

    /// The profile `sign-in` saved.
    /// - Throws: ``ExitStatus/notSignedIn`` when there is none (saying so when the store holds
    ///   a session all the same, which only a version before the profile and the session were
    ///   written as one could leave).
    func profile() async throws -> OAuthProfile {
        guard let profile = try OAuthProfile.load(profileURL) else {
            if try await store.store.load() != nil {
                throw CLIError(.notSignedIn, "the store holds a session, but no sign-in profile names its server (\(profileURL.path) is missing)",
                               hint: "run app-oauth sign-out (it clears the session here) and app-oauth sign-in again")
            }
            throw CLIError(.notSignedIn, "not signed in (no sign-in profile at \(profileURL.path))",
                           hint: "run app-oauth sign-in --issuer URL --client-id ID (same --store and --store-path)")
        }
        return profile
    }

    /// The store bound to the profile beside it, for `role` (see ``ProfileBoundStore``); the
    /// runner asks it afterwards whether another sign-in replaced the session meanwhile.
    func boundStore(_ role: ProfileBoundStore.Role) -> ProfileBoundStore {
        let bound = ProfileBoundStore(store.store, profileURL: profileURL, role: role)
        boundStores.withLock { $0.append(bound) }
        return bound
    }

    /// The profile's provider (with the client secret from its file, and the kind of DPoP key
    /// the profile's sign-in chose, so that the session's configuration says it): from the discovery
    /// document the profile keeps while it is younger than a day, so a valid stored token needs
    /// no network; else discovered again and kept (unless another sign-in replaced the profile
    /// meanwhile); and when discovery fails for want of the server, the kept document however old.
    func provider(_ profile: OAuthProfile) async throws -> OAuthProvider {
        var provider = try await discoveredProvider(profile)
        provider.dpop = try profile.dpop?.keyKind()
        return provider
    }

    /// ``provider(_:)`` without its DPoP key kind.
    private func discoveredProvider(_ profile: OAuthProfile) async throws -> OAuthProvider {
        let secret = try profile.clientSecret()
        if let metadata = profile.freshMetadata() {
            return OAuthProvider(metadata: metadata, clientID: profile.clientID, clientSecret: secret, transport: transport.transport)
        }
        let provider: OAuthProvider
        switch await discover(profile, secret: secret) {
        case let .success(discovered):
            provider = discovered
        case let .failure(error):
            guard error.kind == .networkFailure, let metadata = profile.metadata else { throw error }
            output.note("the provider's discovery document could not be read again (\(error.detail ?? "\(error.kind)")): using the one kept at sign-in")
            return OAuthProvider(metadata: metadata, clientID: profile.clientID, clientSecret: secret, transport: transport.transport)
        }
        if profile.metadata != nil || profile.discoveredAt != nil {
            var kept = profile
            kept.metadata = provider.metadata
            kept.discoveredAt = Date()
            do {
                try await ProfileBoundStore(store.store, profileURL: profileURL, role: .using(.profile(profile.identity))).update(kept)
            } catch {
                output.note("the provider's discovery document could not be kept in the sign-in profile: \(error)")
            }
        }
        return provider
    }

    /// Discovery of the profile's provider, its failure as a value (a `catch … as SignInError
    /// where …` here crashes Swift 6.3.1's SIL verifier).
    private func discover(_ profile: OAuthProfile, secret: String?) async -> Result<OAuthProvider, SignInError> {
        do throws(SignInError) {
            return .success(try await OAuthProvider.discover(issuer: profile.issuer, clientID: profile.clientID,
                                                             clientSecret: secret, transport: transport.transport))
        } catch {
            return .failure(error)
        }
    }

    /// The session of `profile` over the store, configured for the profile's flow. Its store
    /// is bound to the profile (``ProfileBoundStore``): `tokenStore` when given (a sign-in's),
    /// else one that reads the tokens only while `profile` is still the one beside them.
    ///
    /// `minimumValidity`: a token handed out has at least that many seconds left (or half its
    /// lifetime, when that is shorter), else it is renewed first: for a token printed for
    /// another program, which uses it later.
    func session(_ profile: OAuthProfile, provider: OAuthProvider, tokenStore: (any TokenStore)? = nil,
                 minimumValidity: TimeInterval? = nil) throws -> SessionService {
        let server = try Server(baseURL: profile.issuer.absoluteString, transport: transport.transport)
        var configuration: SessionService.Configuration = profile.mode == .clientCredentials
            ? .clientCredentials(provider, scopes: profile.scopes) : .oauth2(provider)
        if var dpop = configuration.dpop {
            // A stored key made by a program with another signer of its algorithm (swift-crypto's
            // ES256 on Linux reading CryptoKit's) is signed with too.
            dpop.alsoReads = DPoPKeyChoice.alsoReads
            configuration.dpop = dpop
        }
        if let minimumValidity {
            configuration.refreshTiming.minimumMargin = max(configuration.refreshTiming.minimumMargin, minimumValidity)
            configuration.refreshTiming.maximumShareOfLifetime = 0.5
            configuration.refreshLeeway = max(configuration.refreshLeeway, minimumValidity)
        }
        if output.verbose {
            // --verbose prints the engine's own records of each refresh decision.
            let call = "POST " + provider.metadata.tokenEndpoint.absoluteString
            configuration.observer = VerboseNotes.observer(refreshCall: call) { [output] in output.note($0) }
        }
        return SessionService(server: server, tokenStore: tokenStore ?? boundStore(.using(.profile(profile.identity))),
                              configuration: configuration)
    }

    /// Whether another sign-in replaced the session while this command ran (one of its bound
    /// stores found the tokens under another profile).
    var sessionWasReplaced: Bool {
        boundStores.withLock { $0.contains { $0.replaced } }
    }

    /// What a command says when another `sign-in` replaced the session it had started with.
    static let replacedError = CLIError(.notSignedIn, "another app-oauth sign-in replaced the session while this command ran",
                                        hint: "run the command again: it then uses the new session")

    /// Releases the store and the transport.
    func close() async {
        await store.close()
        await transport.close()
    }

    /// Runs `body` with a context, closes it, and turns any failure into its message on
    /// stderr and its exit status.
    static func run(_ options: StoreOptions, purpose: CommandContext.Purpose = .useSession,
                    _ body: (OAuthContext) async throws -> Void) async throws(ExitCode) {
        do {
            let context = try await open(options, purpose: purpose)
            do {
                try await body(context)
            } catch {
                await context.close()
                if context.sessionWasReplaced { throw Self.replacedError }
                throw error
            }
            await context.close()
        } catch let exit as ExitCode {
            // Said already (status's "not signed in" on stdout): only the status.
            throw exit
        } catch {
            throw Runner.fail(CLIError(oauth: error, signingIn: purpose == .startSession))
        }
    }
}
