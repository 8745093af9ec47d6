public import NetworkService
public import SessionEngine
public import TokenStore

/// The app's face of the session engine: a ``/SessionEngine/SessionService`` for the app's own
/// server, with the app's sign-in helpers (`SessionService/signIn(email:password:)`,
/// `SessionService/signUp(email:password:nickname:)`, …),
/// `SessionService/deleteAccount()`; every static API call goes through
/// ``/SessionEngine/SessionService/request(handler:)``, which supplies the server and token.
///
/// ```swift
/// let store = try await EncryptedFileTokenStore(fileURL: url, key: .passphrase(passphrase))
/// let service = RepositoryService(server: try Server(baseURL: "https://api.example.com"), tokenStore: store)
/// try await service.signIn(email: "kim@example.com", password: "secret123")
/// let mine = try await service.request { try await AnswerAPI.fetchListOfMine(pageSize: 20, server: $0, accessToken: $1) }
/// let post = try await service.request { server, token in
///     try await PostAPI.fetch(id: 42, server: server, accessToken: token)
/// }
/// ```
///
/// A type alias, not a wrapper: the app and every other server share one engine, so there is
/// no second set of methods to keep in step with it, and the app's additions are extensions
/// that only code importing AppRepository sees.
public typealias RepositoryService = SessionService

extension SessionService {
    /// Creates a service for the app's own server (`SessionService.Configuration.appAPI`).
    /// Nothing is read or sent until the first call.
    /// - Parameters:
    ///   - server: Where the app's API lives.
    ///   - tokenStore: Where the session's credentials are kept.
    public convenience init(server: Server, tokenStore: any TokenStore) {
        self.init(server: server, tokenStore: tokenStore, configuration: .appAPI)
    }
}
