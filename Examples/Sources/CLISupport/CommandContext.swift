public import AppRepository
import Foundation
import NetworkService
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

    /// What the command is about to do with the session.
    public enum Purpose: Sendable {
        /// Use the stored session (most commands).
        case useSession
        /// Start a new one (sign-in, sign-up): a new encrypted file asks for its passphrase twice.
        case startSession
        /// End it (sign-out).
        case endSession
    }

    static func make(_ options: GlobalOptions, purpose: Purpose) async throws(CLIError) -> CommandContext {
        let output = Output(json: options.json, verbose: options.verbose)
        let server: Server
        do {
            server = try Server(baseURL: try options.resolvedServerURL(), transport: URLSessionTransport(timeout: options.timeout))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(error)
        }
        let kind = try options.resolvedStoreKind()
        var store = try await makeStore(kind, options: options, purpose: purpose)
        var configuration = RepositoryService.Configuration()
        if output.verbose {
            // --verbose says when a refresh happens, and that its tokens were saved only once they were.
            let verbose = VerboseTokenStore(store, note: { output.note($0) })
            configuration.refresher = verbose.refresher(wrapping: .appAPI)
            store = verbose
        }
        let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
        return CommandContext(service: service, output: output, storeKind: kind)
    }

    private static func makeStore(_ kind: StoreKind, options: GlobalOptions, purpose: Purpose) async throws(CLIError) -> any TokenStore {
        switch kind {
        case .memory:
            return InMemoryTokenStore()
        case .file:
            return FileTokenStore(fileURL: options.resolvedStoreURL(for: kind))
        case .encrypted:
            let url = options.resolvedStoreURL(for: kind)
            let key = try Passphrase.keySource(keyFile: options.resolvedKeyFile(), storeFile: url,
                                               isNewSession: purpose == .startSession)
            do {
                return try await EncryptedFileTokenStore(fileURL: url, key: key)
            } catch {
                throw CLIError(error)
            }
        }
    }
}
