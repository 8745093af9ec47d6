import Foundation
import SessionEngine
public import TokenStore

/// A token store the options name, opened, and what releases what it holds when the command
/// is done: the store every program's commands keep their session in.
public struct OpenedStore: Sendable {
    /// The store.
    public let store: any TokenStore
    /// Releases what the store holds (the postgres store's own PostgreSQL client).
    public var close: @Sendable () async -> Void = {}
    /// The store's `moveAsideIfUnreadable()`: where an unreadable file or row went, if one was moved.
    public internal(set) var moveAside: (@Sendable () async throws(TokenStoreError) -> String?)?

    /// Opens the store of `kind` as `options` say (file, key file or passphrase, database URL);
    /// `purpose` `.startSession` lets a new encrypted file ask for its passphrase twice.
    public static func open(_ kind: StoreKind, options: StoreOptions, purpose: CommandContext.Purpose) async throws(CLIError) -> OpenedStore {
        switch kind {
        case .memory:
            return OpenedStore(store: InMemoryTokenStore())
        case .file:
            let store = FileTokenStore(fileURL: options.resolvedStoreURL(for: kind))
            return OpenedStore(store: store, moveAside: { () async throws(TokenStoreError) in try await store.moveAsideIfUnreadable()?.path })
        case .encrypted:
            let url = options.resolvedStoreURL(for: kind)
            let key = try Passphrase.keySource(keyFile: options.resolvedKeyFile(), storeFile: url,
                                               isNewSession: purpose == .startSession)
            let store: EncryptedFileTokenStore
            do {
                store = try await EncryptedFileTokenStore(fileURL: url, key: key)
            } catch {
                throw CLIError(error)
            }
            return OpenedStore(store: store, moveAside: { () async throws(TokenStoreError) in try await store.moveAsideIfUnreadable()?.path })
        case .postgres:
            #if PostgreSQL
            let store = try await PostgresStore.open(options, purpose: purpose)
            return OpenedStore(store: store, close: { await store.shutdown() },
                               moveAside: { () async throws(TokenStoreError) in try await store.moveAsideIfUnreadable() })
            #else
            throw .usage("this build of the CLIs has no postgres store", hint: "build Examples/ with its default traits")
            #endif
        }
    }
}
