import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// No secret or token leaves over plain http to a host that is not loopback: every such URL is
/// refused before a connection is made. The transports here fail the test if they are asked
/// to send anything, so nothing ever leaves this machine.
@Suite("Plain http only to loopback: a secret never goes in clear to another host")
struct PlainHTTPRefusalTests {
    /// A transport that records a test failure when it is asked to send.
    static func refusingTransport() -> TestTransport {
        TestTransport { request in
            Issue.record("the transport was asked to send \(request.method.rawValue) \(request.url.absoluteString)")
            throw TransportError(.cannotConnect)
        }
    }

    static let secret = "client-secret-Z3x8/+=&?"

    static func metadata(issuer: String = "https://auth.example.test", token: String = "http://192.0.2.2:18767/token",
                         revocation: String? = nil, userinfo: String? = nil, device: String? = nil) -> AuthorizationServerMetadata {
        AuthorizationServerMetadata(issuer: URL(string: issuer)!, tokenEndpoint: URL(string: token)!,
                                    deviceAuthorizationEndpoint: device.flatMap(URL.init(string:)),
                                    revocationEndpoint: revocation.flatMap(URL.init(string:)),
                                    userinfoEndpoint: userinfo.flatMap(URL.init(string:)))
    }

    @Test("loopback is 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost; any other name or address is not",
          arguments: [("127.0.0.1", true), ("127.255.0.9", true), ("localhost", true), ("LOCALHOST", true), ("[::1]", true),
                      ("::1", true), ("::ffff:127.0.0.1", true), ("0:0:0:0:0:0:0:1", true),
                      ("192.0.2.2", false), ("10.77.1.1", false), ("128.0.0.1", false), ("localhost.example.com", false),
                      ("127.0.0.1.nip.io", false), ("example.com", false), ("::2", false), ("0x7f.0.0.1", false), ("", false)])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(PlainHTTPRule.isLoopback(host: host) == loopback)
    }

    @Test("a Server on plain http to another host is refused when it is made, unless the caller allows plain http",
          arguments: ["http://192.0.2.2:8080", "http://api.example.com", "HTTP://api.example.com/v1"])
    func serverOnAnotherHost(baseURL: String) throws {
        let error = #expect(throws: NetworkError.self) { try Server(baseURL: baseURL) }
        #expect(error?.kind == .invalidServerURL)
        #expect(error?.serverMessage?.contains("loopback") == true, "\(String(describing: error))")
        #expect(throws: Never.self) { try Server(baseURL: baseURL, allowsPlainHTTP: true) }
    }

    @Test("a Server on plain http to loopback, or on https anywhere, is accepted",
          arguments: ["http://127.0.0.1:8080", "http://localhost:8080/api", "http://[::1]:9000", "https://api.example.com"])
    func serverAccepted(baseURL: String) {
        #expect(throws: Never.self) { try Server(baseURL: baseURL) }
    }

    @Test("a port outside 1–65535 is refused where the URL enters, whatever the scheme",
          arguments: ["http://127.0.0.1:99999", "https://api.example.com:65536", "http://127.0.0.1:0"])
    func portOutOfRange(baseURL: String) {
        let error = #expect(throws: NetworkError.self) { try Server(baseURL: baseURL, allowsPlainHTTP: true) }
        #expect(error?.kind == .invalidServerURL)
        #expect(error?.serverMessage?.contains("port") == true, "\(String(describing: error))")
    }

    @Test("discovering a plain-http issuer on another host is insecureURL, and nothing is sent",
          arguments: ["http://192.0.2.2:18767", "http://auth.example.test/realms/x"])
    func issuerOnAnotherHost(issuer: String) async throws {
        let transport = Self.refusingTransport()
        let error = try await #require(throws: SignInError.self) {
            try await OAuthProvider.discover(issuer: URL(string: issuer)!, clientID: "ci-job", clientSecret: Self.secret, transport: transport)
        }
        #expect(error == .insecureURL)
        #expect(error.errorDescription?.contains(issuer) == true, "\(error.errorDescription ?? "")")
        #expect(transport.requests.isEmpty)
    }

    @Test("an issuer whose port is above 65535 is refused before a connection (a transport on NIO would trap)")
    func issuerPortOutOfRange() async throws {
        let transport = Self.refusingTransport()
        let error = try await #require(throws: SignInError.self) {
            try await OAuthProvider.discover(issuer: URL(string: "http://127.0.0.1:99999")!, clientID: "x", transport: transport)
        }
        #expect(error == .insecureURL)
        #expect(transport.requests.isEmpty)
    }

    @Test("a discovery document on loopback that names a plain-http endpoint on another host is refused as a whole",
          arguments: ["token_endpoint", "revocation_endpoint", "userinfo_endpoint", "device_authorization_endpoint",
                      "authorization_endpoint"])
    func documentNamingAnotherHost(field: String) async throws {
        // Discovery is cached per process: an issuer of its own.
        let issuer = "http://127.0.0.1:\(Int.random(in: 20_000...60_000))/\(field)"
        var document: [String: String] = ["issuer": issuer, "token_endpoint": issuer + "/token"]
        document[field] = "http://192.0.2.2/\(field)"
        let body = try JSONSerialization.data(withJSONObject: document)
        let transport = TestTransport { request in
            guard request.url.host == "127.0.0.1" else {
                Issue.record("sent to \(request.url.absoluteString)")
                throw TransportError(.cannotConnect)
            }
            return TestTransport.Reply(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        let error = try await #require(throws: SignInError.self) {
            try await OAuthProvider.discover(issuer: URL(string: issuer)!, clientID: "ci-job", clientSecret: Self.secret, transport: transport)
        }
        #expect(error == .insecureURL)
        #expect(error.errorDescription?.contains(field) == true, "\(error.errorDescription ?? "")")
        #expect(transport.requests.allSatisfy { $0.url.host == "127.0.0.1" })
    }

    @Test("client credentials to a token endpoint on plain http elsewhere (metadata made by hand) are refused before sending")
    func clientCredentialsRefused() async throws {
        let transport = Self.refusingTransport()
        let provider = OAuthProvider(metadata: Self.metadata(), clientID: "ci-job", clientSecret: Self.secret, transport: transport)
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .clientCredentials(provider, scopes: []))
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .clientCredentials(provider, scopes: []))
        }
        #expect(error == .insecureURL)
        #expect(error.errorDescription?.contains("http://192.0.2.2:18767/token") == true, "\(error.errorDescription ?? "")")
        #expect(!String(describing: error).contains(Self.secret))
        #expect(transport.requests.isEmpty)
    }

    @Test("a device sign-in whose device endpoint is plain http elsewhere is refused before sending")
    func deviceRefused() async throws {
        let transport = Self.refusingTransport()
        let provider = OAuthProvider(metadata: Self.metadata(token: "https://auth.example.test/token", device: "http://192.0.2.2/device"),
                                     clientID: "cli", transport: transport)
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: transport),
                                     tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        let error = try await #require(throws: SignInError.self) {
            try await session.signIn(with: .device(provider, scopes: []) { _ in Issue.record("a user code was shown") })
        }
        #expect(error == .insecureURL)
        #expect(transport.requests.isEmpty)
    }

    @Test("a refresh to a plain-http token endpoint elsewhere sends nothing and keeps the session")
    func refreshRefused() async throws {
        let transport = Self.refusingTransport()
        let provider = OAuthProvider(metadata: Self.metadata(), clientID: "cli", transport: transport)
        let stored = Credentials(accessToken: AccessToken("AT-expired"), refreshToken: "RT-live-secret", accessTokenExpiresAt: Date(timeIntervalSinceNow: -60),
                                 accountID: "alice")
        let store = InMemoryTokenStore(credentials: stored)
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: transport),
                                     tokenStore: store, configuration: .oauth2(provider))
        let error = await #expect(throws: (any Error).self) {
            try await session.request { _, token in token.rawValue }
        }
        #expect(!String(describing: error as Any).contains("RT-live-secret"))
        #expect(try await store.load() == stored, "the session is kept")
        #expect(transport.requests.isEmpty)
    }

    @Test("userinfo and revocation on plain http elsewhere are refused before the token is sent")
    func userinfoAndRevocationRefused() async throws {
        let transport = Self.refusingTransport()
        let provider = OAuthProvider(metadata: Self.metadata(token: "https://auth.example.test/token",
                                                             revocation: "http://192.0.2.2/revoke", userinfo: "http://192.0.2.2/userinfo"),
                                     clientID: "cli", transport: transport)
        let error = try await #require(throws: SignInError.self) { try await provider.userInfo(accessToken: AccessToken("AT-live-secret")) }
        #expect(error == .insecureURL)
        let store = InMemoryTokenStore(credentials: Credentials(accessToken: AccessToken("AT-live-secret"), refreshToken: "RT-live-secret",
                                                                accessTokenExpiresAt: Date(timeIntervalSinceNow: 600), accountID: "alice"))
        let session = SessionService(server: try Server(baseURL: "https://api.example.test", transport: transport),
                                     tokenStore: store, configuration: .oauth2(provider))
        let result = try await session.signOut()
        #expect(result.wasSignedIn && result.serverError != nil && result.removedLocally)
        #expect(transport.requests.isEmpty)
    }

    @Test("an issuer written in capitals (HTTP://127.0.0.1) is the lower-case issuer, and discovery works")
    func upperCaseScheme() async throws {
        let base = "127.0.0.1:\(Int.random(in: 20_000...60_000))/upper"
        let document = try JSONSerialization.data(withJSONObject: ["issuer": "http://" + base, "token_endpoint": "http://\(base)/token"])
        let transport = TestTransport { request in
            #expect(request.url.scheme == "http")
            return TestTransport.Reply(status: 200, headers: ["Content-Type": "application/json"], body: document)
        }
        let provider = try await OAuthProvider.discover(issuer: URL(string: "HTTP://" + base)!, clientID: "x", transport: transport)
        #expect(provider.metadata.tokenEndpoint.absoluteString == "http://\(base)/token")
    }
}
