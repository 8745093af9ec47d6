import AppSDKHarness
import AppSDKTesting
import Foundation
import OAuthSignIn
import Testing

extension OAuthConformanceTests {
    /// OpenID Connect discovery against django-oauth-toolkit.
    @Suite("Discovery")
    struct Discovery {
        let fixture: SignInFixture
        init() throws { fixture = try SignInFixture() }

        @Test("discovery finds the server's endpoints and capabilities from the issuer alone")
        func findsTheEndpoints() async throws {
            let provider = try await OAuthProvider.discover(issuer: fixture.issuer, clientID: OAuthTestServer.browserClientID)
            let metadata = provider.metadata
            let base = try #require(OAuthTestServer.url)
            #expect(metadata.issuer.absoluteString == OAuthTestServer.issuer)
            #expect(metadata.authorizationEndpoint?.absoluteString == base + "/o/authorize/")
            #expect(metadata.tokenEndpoint.absoluteString == base + "/o/token/")
            #expect(metadata.deviceAuthorizationEndpoint?.absoluteString == base + "/o/device-authorization/")
            #expect(metadata.revocationEndpoint?.absoluteString == base + "/o/revoke_token/")
            #expect(metadata.userinfoEndpoint?.absoluteString == base + "/o/userinfo/")
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])
            #expect(metadata.grantTypesSupported.contains("urn:ietf:params:oauth:grant-type:device_code"))
            #expect(metadata.scopesSupported.contains("openid"))
        }

        @Test("a discovery document that names another issuer than the one asked for is refused")
        func wrongIssuerIsRefused() async throws {
            // DOT's real document, served from another address: its issuer is not that address.
            let real = try await OAuthTestUser.conformance().fetch(fixture.issuer.appendingPathComponent(".well-known/openid-configuration"))
            #expect(real.status == 200)
            let impostor = try LoopbackHTTPServer { request in
                request.target == "/o/.well-known/openid-configuration" ? .json(200, real.body) : .json(404, "{}")
            }
            defer { impostor.stop() }
            let asked = try #require(URL(string: impostor.baseURL + "/o"))
            let error = await #expect(throws: SignInError.self) {
                _ = try await OAuthProvider.discover(issuer: asked, clientID: OAuthTestServer.browserClientID)
            }
            #expect(error?.kind == .issuerMismatch)
            #expect(impostor.requests.contains { $0.target == "/o/.well-known/openid-configuration" })
        }
    }
}
