@testable import OAuthSignIn
import Foundation
import Testing

@Suite("A token request's htu is the discovered URL as written: glewlwyd compares it byte for byte")
struct DPoPTargetAsWrittenTests {
    @Test("port, host case and path kept; query, fragment and user info dropped", arguments: [
        ("https://Auth.Example.test:443/api/oidc/token", "https://Auth.Example.test:443/api/oidc/token"),
        ("http://127.0.0.1:4593/api/oidc-dpop/token", "http://127.0.0.1:4593/api/oidc-dpop/token"),
        ("https://auth.example.test/o/token/?client=1#top", "https://auth.example.test/o/token/"),
        ("https://user:pw@auth.example.test/token", "https://auth.example.test/token"),
        ("https://auth.example.test/a%20b/token", "https://auth.example.test/a%20b/token"),
        ("https://auth.example.test", "https://auth.example.test/"),
    ])
    func asWritten(url: String, htu: String) throws {
        #expect(AuthorizationServerClient.htu(of: try #require(URL(string: url))) == htu)
    }

    @Test("a URL that is not http(s) with a host has none")
    func notHTTP() throws {
        #expect(AuthorizationServerClient.htu(of: try #require(URL(string: "ftp://auth.example.test/token"))) == nil)
        #expect(AuthorizationServerClient.htu(of: try #require(URL(string: "file:///token"))) == nil)
    }
}
