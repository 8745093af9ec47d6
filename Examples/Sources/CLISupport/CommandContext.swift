public import AppRepository
import Foundation
import NetworkService
public import SessionEngine
import TokenStore

/// What a command works with: the process's one ``RepositoryService`` and the output.
///
/// There is one service per process, over the store the options name. Two programs (or two
/// runs of one) on the same store file take turns through the store's exclusive section,
/// so a refresh done by one is what the other uses.
public struct CommandContext: Sendable {
    /// The SDK's door to the API.
    public let service: RepositoryService
    /// Where results go.
    public let output: Output
    /// The kind of store the session lives in.
    public let storeKind: StoreKind
    /// The server's transport (`--transport`), closed by ``close()``.
    let transport: CommandTransport
    /// Releases what the store holds (the postgres store's own PostgreSQL client), by ``close()``.
    let closeStore: @Sendable () async -> Void

    /// What the command is about to do with the session.
    public enum Purpose: Sendable {
        /// Use the stored session (most commands).
        case useSession
        /// Start a new one (sign-in, sign-up): a new encrypted file asks for its passphrase twice.
        case startSession
        /// End it (sign-out).
        case endSession
    }

    /// Opens the store and the server for a command; `dpop`: the kind of DPoP key a sign-in
    /// binds the session to (`sign-in --dpop`).
    static func make(_ options: GlobalOptions, purpose: Purpose, dpop: DPoPKeyKind? = nil) async throws(CLIError) -> CommandContext {
        let output = Output(json: options.json, verbose: options.verbose)
        let baseURL = try options.resolvedServerURL()
        let transport = CommandTransport.make(try options.common.resolvedTransportKind(), timeout: options.common.timeout)
        do throws(CLIError) {
            let server: Server
            do {
                server = try Server(baseURL: baseURL, transport: transport.transport)
            } catch {
                throw CLIError(error)
            }
            let kind = try options.common.resolvedStoreKind()
            let opened = try await OpenedStore.open(kind, options: options.common, purpose: purpose)
            var store = opened.store
            if kind == .postgres {
                // The store's description names the database, table and account, never the password.
                output.note("the session is kept in \(store)")
            }
            if purpose == .startSession, let moveAside = opened.moveAside {
                // A sign-in over an unreadable file or row moves it aside first, and says where.
                store = MovingAsideTokenStore.sayingWhere(store, moveAside: moveAside)
            }
            var configuration = RepositoryService.Configuration.appAPI
            if let dpop {
                configuration.dpop = DPoPConfiguration(keys: dpop, alsoReads: DPoPKeyChoice.alsoReads)
            } else if purpose != .startSession, kind != .memory, let reads = DPoPKeyChoice.alsoReads.first {
                // A stored key of a kind beyond the SDK's own here (swift-crypto's ES256 on
                // Linux) is signed with too. Only where nothing signs in: a configured kind
                // binds sign-ins (the memory store's one-shot sessions sign in, bearer).
                configuration.dpop = DPoPConfiguration(keys: reads, alsoReads: DPoPKeyChoice.alsoReads)
            }
            if output.verbose {
                // --verbose prints the engine's own records of each refresh decision.
                configuration.observer = VerboseNotes.observer { output.note($0) }
            }
            let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
            return CommandContext(service: service, output: output, storeKind: kind, transport: transport, closeStore: opened.close)
        } catch {
            await transport.close()
            throw error
        }
    }

    /// Releases what the context holds (the postgres store's PostgreSQL client, an
    /// AsyncHTTPClient client of its own); the runner calls it once the command is done,
    /// whether it succeeded or not.
    func close() async {
        await closeStore()
        await transport.close()
    }
}
