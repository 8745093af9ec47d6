import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
import Testing

@Suite("Discovery: from an issuer URL to the server's endpoints")
struct DiscoveryTests {
    @Test("the OpenID Connect document gives every endpoint as an absolute URL and what the server supports")
    func discoversEndpoints() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let base = fake.issuer.absoluteString
        #expect(provider.metadata.issuer == fake.issuer)
        #expect(provider.metadata.tokenEndpoint.absoluteString == base + "/token/")
        #expect(provider.metadata.authorizationEndpoint?.absoluteString == base + "/authorize/")
        #expect(provider.metadata.deviceAuthorizationEndpoint?.absoluteString == base + "/device-authorization/")
        #expect(provider.metadata.revocationEndpoint?.absoluteString == base + "/revoke_token/")
        #expect(provider.metadata.userinfoEndpoint?.absoluteString == base + "/userinfo/")
        #expect(provider.metadata.supportsS256)
        #expect(provider.metadata.grantTypesSupported.contains("client_credentials"))
        #expect(fake.requests.map(\.url.absoluteString) == [base + "/.well-known/openid-configuration"])
    }

    @Test("an issuer is discovered once per process: the second discovery sends nothing")
    func cachedPerProcess() async throws {
        let fake = try FakeOIDCServer()
        _ = try await fake.provider()
        let again = try await fake.provider(clientID: "another-client")
        #expect(fake.requests.count == 1)
        #expect(again.clientID == "another-client")
    }

    @Test("without an OpenID Connect document, the RFC 8414 one is read, its well-known part inserted before the issuer's path")
    func fallsBackToRFC8414() async throws {
        let fake = try FakeOIDCServer(issuerPath: "/tenant/one")
        fake.configure { $0.openIDConfigurationMissing = true }
        let provider = try await fake.provider()
        #expect(provider.metadata.issuer == fake.issuer)
        let host = try #require(fake.issuer.host())
        #expect(fake.requests.map(\.url.absoluteString) == [
            "https://\(host)/tenant/one/.well-known/openid-configuration",
            "https://\(host)/.well-known/oauth-authorization-server/tenant/one",
        ])
    }

    @Test("no document at either address is discoveryDocumentMissing, naming both")
    func missing() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.openIDConfigurationMissing = true; $0.discoveryOverride = .status(404) }
        let error = try await #require(throws: SignInError.self) { try await fake.provider() }
        #expect(error == .discoveryDocumentMissing)
        #expect(error.errorDescription?.contains("oauth-authorization-server") == true)
    }

    @Test("a document that is not JSON, or lacks the issuer or token endpoint, or has a relative endpoint, is malformed",
          arguments: [
              (#"<html>Welcome</html>"#, "not a JSON object"),
              (#"{"token_endpoint": "https://x.test/token"}"#, "`issuer`"),
              (#"{"issuer": "ISSUER"}"#, "`token_endpoint`"),
              (#"{"issuer": "ISSUER", "token_endpoint": "/token"}"#, "`token_endpoint` is not an absolute"),
              (#"{"issuer": "ISSUER", "token_endpoint": "https://x.test/t", "code_challenge_methods_supported": "S256"}"#,
               "`code_challenge_methods_supported` is not a list"),
          ])
    func malformed(document: String, says: String) async throws {
        let fake = try FakeOIDCServer()
        let text = document.replacingOccurrences(of: "ISSUER", with: fake.issuer.absoluteString)
        fake.configure { $0.discoveryOverride = .json(200, text) }
        let error = try await #require(throws: SignInError.self) { try await fake.provider() }
        #expect(error == .discoveryDocumentMalformed)
        #expect(error.errorDescription?.contains(says) == true)
    }

    @Test("a document naming another issuer is refused with issuerMismatch, even though it is well formed")
    func otherIssuer() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.document["issuer"] = "https://evil.example.test/o" }
        let error = try await #require(throws: SignInError.self) { try await fake.provider() }
        #expect(error == .issuerMismatch)
        #expect(error.errorDescription?.contains("https://evil.example.test/o") == true)
        // Nothing was cached: the right document is read next time.
        fake.configure { $0.document["issuer"] = fake.issuer.absoluteString }
        #expect(try await fake.provider().metadata.issuer == fake.issuer)
    }

    @Test("a trailing slash on the issuer asked for is not a different issuer")
    func trailingSlash() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await OAuthProvider.discover(issuer: URL(string: fake.issuer.absoluteString + "/")!,
                                                        clientID: "cli", transport: fake.transport)
        #expect(provider.metadata.issuer == fake.issuer)
    }

    @Test("a server error during discovery is a networkFailure with the HTTP error underneath, not 'missing'")
    func serverError() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.discoveryOverride = .status(503) }
        let error = try await #require(throws: SignInError.self) { try await fake.provider() }
        #expect(error == .networkFailure)
        #expect((error.underlying as? NetworkError)?.statusCode == 503)
    }

    @Test("a server without S256 is refused when the browser flow needs PKCE, with pkceS256Unsupported")
    func noS256() async throws {
        let fake = try FakeOIDCServer()
        fake.configure { $0.document["code_challenge_methods_supported"] = ["plain"] }
        let provider = try await fake.provider()
        let error = try #require(throws: SignInError.self) {
            try provider.authorizationRequest(redirectURI: URL(string: "com.example.app:/callback")!, scopes: ["openid"])
        }
        #expect(error == .pkceS256Unsupported)
        // No code_challenge_methods_supported at all means no PKCE (RFC 8414 §2).
        let other = try FakeOIDCServer()
        other.configure { $0.document["code_challenge_methods_supported"] = nil }
        let silent = try await other.provider()
        #expect(throws: SignInError.pkceS256Unsupported) {
            try silent.authorizationRequest(redirectURI: URL(string: "com.example.app:/callback")!, scopes: [])
        }
    }
}
