import AppRepository
import ArgumentParser
import AsyncHTTPClient
import AsyncHTTPClientTransport
import CLISupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkService
import NIOCore
import NIOHTTP1
import SessionEngine
import Synchronization
import TokenStore

/// One way of making the call `app-bench per-call` measures (`GET /v1/members/me`, decoded
/// into a `Member`), from raw URLSession to the service with an encrypted store.
struct PerCallVariant: Sendable {
    let name: String
    let call: @Sendable () async throws -> Void

    static let rawURLSession = "raw URLSession + decode"
    static let rawURLSessionOnce = "raw URLSession, request built once"
    static let rawURLSessionAgain = "raw URLSession again, a session of its own"
    static let guarded = "guarded minimal exchange + decode"
    static let staticURLSession = "static API (URLSession)"
    static let memory = "service, memory store"
    static let observed = "service, memory store, observer installed"
    static let file = "service, file store"
    static let encrypted = "service, encrypted store"
    static let rawAHCAsync = "raw AsyncHTTPClient, async API + decode"
    static let rawAHC = "raw AsyncHTTPClient, one loop + decode"
    static let staticAHC = "static API (AsyncHTTPClient)"
    static let memoryAHC = "service, memory store, AHC"
    static let dpopEdDSA = "service, memory store, DPoP EdDSA"
    static let dpopES256 = "service, memory store, DPoP ES256"

    /// The DPoP rows (`--dpop-server`), each held to the DPoP goal against ``memory``, the
    /// bearer call of the same kind.
    static let dpopOverBearer = [dpopEdDSA, dpopES256]

    /// The SDK's rows over URLSession: each is held to the per-row goal against raw URLSession.
    static let sdkOverURLSession = [staticURLSession, memory, observed, file, encrypted]

    /// Every variant, signed in and ready; raw URLSession first (the baseline). `ahc` is the
    /// AsyncHTTPClient transport the AHC rows share, its client also the raw AHC rows'. With
    /// `dpopServer` (a server requiring DPoP), the DPoP rows too: sessions bound to an EdDSA
    /// and an ES256 key, each call signed with a proof.
    static func all(baseURL: String, server: Server, ahc: AsyncHTTPClientTransport, ahcServer: Server,
                    dpopServer: Server? = nil, folder: URL) async throws -> [PerCallVariant] {
        func signedIn(_ store: any TokenStore, on server: Server,
                      configuration: RepositoryService.Configuration = .appAPI) async throws -> RepositoryService {
            let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
            _ = try await service.signInAnonymously()
            return service
        }
        let memory = try await signedIn(InMemoryTokenStore(), on: server)
        // The same with an observer installed (issue #21): it must cost nothing on a call that needs no refresh.
        var observing = RepositoryService.Configuration.appAPI
        let records = Mutex(0)
        observing.observer = SessionObserver { _ in records.withLock { $0 += 1 } }
        let observed = try await signedIn(InMemoryTokenStore(), on: server, configuration: observing)
        let file = try await signedIn(FileTokenStore(fileURL: folder.appendingPathComponent("plain.json")), on: server)
        let encrypted = try await signedIn(try await EncryptedFileTokenStore(
            fileURL: folder.appendingPathComponent("store.enc"), key: .keyFile(folder.appendingPathComponent("store.key"))), on: server)
        let memoryAHC = try await signedIn(InMemoryTokenStore(), on: ahcServer)
        var dpopRows: [PerCallVariant] = []
        if let dpopServer {
            for (name, choice) in [(dpopEdDSA, DPoPKeyChoice.eddsa), (dpopES256, .es256)] {
                var bound = RepositoryService.Configuration.appAPI
                bound.dpop = DPoPConfiguration(keys: try choice.keyKind(), alsoReads: DPoPKeyChoice.alsoReads)
                let service = try await signedIn(InMemoryTokenStore(), on: dpopServer, configuration: bound)
                dpopRows.append(PerCallVariant(name: name) {
                    _ = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
                })
            }
        }
        let token = try await AuthAPI.signInAnonymously(server: server).tokens.accessToken
        let url = baseURL + "/v1/members/me", bearer = "Bearer \(token.rawValue)"

        // Raw URLSession: the same request and decoding with no SDK in between. The request is
        // built per call, as a client whose token changes must: the same head the SDK sends
        // (its bearer token and `Accept`) and the same timeout. Building it costs a few percent
        // of a call on Linux, which the row built once shows.
        guard let parsed = URL(string: url) else { throw ValidationError("--server \(baseURL) is not a URL") }
        @Sendable func request() -> URLRequest {
            var request = URLRequest(url: parsed, cachePolicy: .reloadIgnoringLocalCacheData)
            request.timeoutInterval = URLSessionTransport.defaultTimeout
            request.setValue(bearer, forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            return request
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration)
        // The baseline's very code on another session: it reads 1.00 when the method is fair.
        let sessionAgain = URLSession(configuration: configuration)
        // The floor of a guarded call: the size limit, the redirect rule and the deadline kept
        // at least cost (GuardedExchange), the same request and decoding.
        let guardedSession = GuardedExchange.makeSession()
        let once = request()
        // Raw AsyncHTTPClient, on the AHC transport's own client: the way its README shows
        // (async API), and the cheapest way it offers (a delegate answered on one event loop,
        // as the transport does), so the transport's own share shows against either.
        let client = ahc.client, loop = client.eventLoopGroup.next()
        return [
            PerCallVariant(name: rawURLSession) {
                let (data, response) = try await session.data(for: request())
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: data)
            },
            PerCallVariant(name: rawURLSessionAgain) {
                let (data, response) = try await sessionAgain.data(for: request())
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: data)
            },
            PerCallVariant(name: guarded) {
                let (data, response) = try await GuardedExchange.send(
                    request(), on: guardedSession, timeout: URLSessionTransport.defaultTimeout,
                    maximumBytes: TransportLimits.defaultMaximumResponseBytes)
                guard response.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: data)
            },
            PerCallVariant(name: rawURLSessionOnce) {
                let (data, response) = try await session.data(for: once)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: data)
            },
            PerCallVariant(name: staticURLSession) { _ = try await MemberAPI.fetchMe(server: server, accessToken: token) },
            PerCallVariant(name: self.memory) { _ = try await memory.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } },
            PerCallVariant(name: self.observed) { _ = try await observed.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } },
            PerCallVariant(name: self.file) { _ = try await file.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } },
            PerCallVariant(name: self.encrypted) { _ = try await encrypted.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } },
            PerCallVariant(name: rawAHCAsync) {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: bearer)
                let response = try await client.execute(request, timeout: .seconds(60))
                guard response.status == .ok else { throw URLError(.badServerResponse) }
                let body = try await response.body.collect(upTo: TransportLimits.defaultMaximumResponseBytes)
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: Data(body.readableBytesView))
            },
            PerCallVariant(name: rawAHC) {
                let request = try HTTPClient.Request(url: url, method: .GET, headers: ["Authorization": bearer])
                let response = try await client.execute(
                    request: request, delegate: ResponseAccumulator(request: request),
                    eventLoop: .delegate(on: loop), deadline: .now() + .seconds(60)
                ).futureResult.get()
                guard response.status == .ok, let body = response.body else { throw URLError(.badServerResponse) }
                _ = try JSONCoding.makeDecoder().decode(Member.self, from: Data(body.readableBytesView))
            },
            PerCallVariant(name: staticAHC) { _ = try await MemberAPI.fetchMe(server: ahcServer, accessToken: token) },
            PerCallVariant(name: self.memoryAHC) { _ = try await memoryAHC.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } },
        ] + dpopRows
    }
}
