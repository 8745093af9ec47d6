import Foundation
import NetworkService
import Testing

@Suite("Redirect policy: a credential never goes to another origin")
struct RedirectPolicyTests {
    static func request(_ url: String, headers: [String: String] = [:], body: Data? = nil) -> HTTPRequest {
        HTTPRequest(method: body == nil ? .get : .post, url: URL(string: url)!, headerFields: headers, body: body)
    }

    @Test("an origin is scheme, host and port, lowercased, with the default port filled in; no user, path or query")
    func origins() {
        #expect(RedirectPolicy.origin(of: URL(string: "HTTPS://API.Example.com/v1/posts?page=2")!) == "https://api.example.com:443")
        #expect(RedirectPolicy.origin(of: URL(string: "http://user:pw@example.com/")!) == "http://example.com:80")
        #expect(RedirectPolicy.origin(of: URL(string: "http://127.0.0.1:8080")!) == "http://127.0.0.1:8080")
        #expect(RedirectPolicy.origin(of: URL(string: "https://example.com:443/x")!) == RedirectPolicy.origin(of: URL(string: "https://example.com/y")!))
    }

    @Test("a secret header or a body is a credential; Accept, Content-Type and an empty body are not")
    func credentials() {
        #expect(RedirectPolicy.carriesCredential(Self.request("https://a.example", headers: ["Authorization": "Bearer x"])))
        #expect(RedirectPolicy.carriesCredential(Self.request("https://a.example", headers: ["cookie": "s=1"])))
        #expect(RedirectPolicy.carriesCredential(Self.request("https://a.example", headers: ["X-Api-Key": "k"])))
        #expect(RedirectPolicy.carriesCredential(Self.request("https://a.example", headers: ["X-Refresh-Token": "r"])))
        #expect(RedirectPolicy.carriesCredential(Self.request("https://a.example", body: Data("password=p".utf8))))
        #expect(!RedirectPolicy.carriesCredential(Self.request("https://a.example", headers: ["Accept": "application/json", "Content-Type": "application/json"])))
        #expect(!RedirectPolicy.carriesCredential(Self.request("https://a.example", body: Data())))
    }

    @Test("with a credential, another scheme, host or port is refused, naming both origins; the same origin is not")
    func refusals() throws {
        let request = Self.request("https://api.example.com/v1/posts", headers: ["Authorization": "Bearer secret-token"])
        for other in ["https://cdn.example.com/v1/posts", "http://api.example.com/v1/posts", "https://api.example.com:8443/v1/posts"] {
            let refusal = try #require(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: other)!)?.underlying as? CrossOriginRedirect, "\(other)")
            #expect(refusal.from == "https://api.example.com:443")
            #expect(refusal.to == RedirectPolicy.origin(of: URL(string: other)!))
            #expect(refusal.description.contains(refusal.from) && refusal.description.contains(refusal.to))
            #expect(refusal.errorDescription == refusal.description)
            #expect(!refusal.description.contains("secret-token") && !refusal.description.contains("/v1/posts"))
        }
        for same in ["https://api.example.com/v1/posts/", "https://API.example.com:443/v2?x=1"] {
            #expect(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: same)!) == nil, "\(same)")
        }
    }

    @Test("without a credential, any redirect within https or within http may be followed")
    func noCredential() {
        let request = Self.request("https://api.example.com/v1/public", headers: ["Accept": "application/json"])
        #expect(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: "https://elsewhere.example.net/x")!) == nil)
        let local = Self.request("http://127.0.0.1:8080/v1/public")
        #expect(RedirectPolicy.refusal(of: local, redirectedTo: URL(string: "http://127.0.0.1:9090/x")!) == nil)
    }

    @Test("even without a credential, https never downgrades to plain http (a discovery document fetched so is nobody's)",
          arguments: ["http://auth.example.com/.well-known/openid-configuration", "http://127.0.0.1:8080/doc"])
    func downgradeRefused(target: String) throws {
        let request = Self.request("https://auth.example.com/.well-known/openid-configuration", headers: ["Accept": "application/json"])
        let refusal = try #require(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: target)!)?.underlying as? CrossOriginRedirect)
        #expect(refusal.description.contains("from https to plain http"), "\(refusal)")
    }

    @Test("a redirect to a port outside 1–65535 is refused, with or without a credential")
    func portOutOfRange() throws {
        let request = Self.request("http://127.0.0.1:8080/v1/public")
        let refusal = try #require(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: "http://127.0.0.1:99999/x")!)?.underlying as? CrossOriginRedirect)
        #expect(refusal.description.contains("port"), "\(refusal)")
    }

    @Test("a request carrying a DPoP proof follows no redirect, not even within its origin, and the refusal says why",
          arguments: ["https://api.example.com/v1/posts/", "https://API.example.com:443/v2?x=1", "https://cdn.example.com/v1/posts"])
    func dpopProofFollowsNoRedirect(target: String) throws {
        let proof = "eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJqdGkiOiJ4In0.c2lnbmF0dXJlLW9mLXRoZS1wcm9vZg"
        for headers in [["DPoP": proof], ["dpop": proof], ["Authorization": "DPoP secret-token", "DPoP": proof]] {
            let request = Self.request("https://api.example.com/v1/posts", headers: headers)
            let refusal = try #require(RedirectPolicy.refusal(of: request, redirectedTo: URL(string: target)!)?.underlying as? CrossOriginRedirect, "\(headers.keys)")
            #expect(refusal.from == "https://api.example.com:443")
            #expect(refusal.to == RedirectPolicy.origin(of: URL(string: target)!))
            #expect(refusal.description.contains("DPoP proof") && refusal.description.contains("no redirect"), "\(refusal)")
            #expect(!refusal.description.contains(proof) && !refusal.description.contains("secret-token"))
        }
    }

    @Test("a DPoP proof is a credential: its value is never printed; a DPoP-Nonce header alone changes nothing")
    func dpopHeaderIsACredential() {
        let request = Self.request("https://api.example.com/v1/posts", headers: ["DPoP": "eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.c2ln"])
        #expect(RedirectPolicy.carriesCredential(request))
        #expect(request.description.contains("DPoP: <redacted>") && !request.description.contains("c2ln"), "\(request)")
        let withNonce = Self.request("https://api.example.com/v1/public", headers: ["DPoP-Nonce": "eyJ7S_zG.eyJH0-Z.HX4w-7v"])
        #expect(RedirectPolicy.refusal(of: withNonce, redirectedTo: URL(string: "https://api.example.com/v1/public/")!) == nil)
    }

    @Test("a transport error of a refused redirect shows both origins in full, even long host names")
    func refusalDescription() {
        let error = TransportError.redirectRefused(from: "https://api.production.example.com:443", to: "https://collector.attacker.example.net:443")
        #expect(error.kind == .redirectRefused)
        #expect(error.cause == "refused a redirect from https://api.production.example.com:443 to https://collector.attacker.example.net:443: "
            + "the request carries a credential (a secret header or a body), which is never sent to another origin")
        #expect(String(describing: error).contains("collector.attacker.example.net:443"))
        #expect(error.errorDescription == error.description)
    }
}
