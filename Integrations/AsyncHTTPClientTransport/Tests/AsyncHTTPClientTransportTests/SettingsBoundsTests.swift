import AppSDKTesting
import AsyncHTTPClient
import AsyncHTTPClientTransport
import Foundation
import NetworkService
import Testing

@Suite("The AsyncHTTPClient transport bounds absurd settings and judges redirects on any client")
struct SettingsBoundsTests {
    @Test("an absurd timeout is cut to a day, NaN is the default, zero or less a millisecond; a negative size limit is 0")
    func absurdSettingsAreBounded() {
        #expect(AsyncHTTPClientTransport(timeout: 1e18).timeout == 86_400)
        #expect(AsyncHTTPClientTransport(timeout: .infinity).timeout == 86_400)
        #expect(AsyncHTTPClientTransport(timeout: .nan).timeout == 30)
        #expect(AsyncHTTPClientTransport(timeout: -1).timeout == 0.001)
        #expect(AsyncHTTPClientTransport(maximumResponseBytes: -1).maximumResponseBytes == 0)
        #expect(AsyncHTTPClientTransport().maximumResponseBytes == 16 * 1024 * 1024)
    }

    @Test("a transport with a 1e18-second timeout sends, instead of crashing in its conversion to nanoseconds")
    func hugeTimeoutSends() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let (_, response) = try await AsyncHTTPClientTransport(timeout: 1e18).send(HTTPRequest(method: .get, url: URL(string: http.baseURL + "/v1/ping")!))
        #expect(response.statusCode == 204)
    }

    @Test("over a client of yours that follows redirects its own way, a credential still never reaches another origin")
    func clientOfYoursRefusesCrossOriginRedirects() async throws {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: true))
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let conformance = TransportConformance { timeout, maximumResponseBytes in
            AsyncHTTPClientTransport(client: client, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
        }
        try await conformance.crossOriginRedirectOfACredentialIsRefused()
        try await conformance.sameOriginRedirectKeepsItsCredential()
        try await client.shutdown()
    }
}
