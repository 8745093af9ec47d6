import Foundation
import NetworkService
import Testing

/// Redirects: a credential (a secret header or a body) never reaches another origin, and
/// redirects that take none still work.
extension TransportConformance {
    /// A sign-in's email and password, as a body that must never reach another origin.
    static let signInBody = Data(#"{"email":"member@example.com","password":"correct-horse-battery"}"#.utf8)

    /// A redirect to another origin (here another port) of a request that carries a
    /// credential is refused with `.redirectRefused`, whatever the status: a bearer token
    /// (301, 302, 303, 307, 308), another secret header, a sign-in body with no header at
    /// all (307, 308). The other server receives nothing; the error names both origins and
    /// neither the token nor the password; `Server.send` reports it as a transport error
    /// that is not worth retrying.
    public func crossOriginRedirectOfACredentialIsRefused() async throws {
        let other = try LoopbackHTTPServer { _ in .json(200, #"{"id":1,"content":"elsewhere"}"#) }
        defer { other.stop() }
        let http = try LoopbackHTTPServer { request in
            let status = Int(request.target.split(separator: "/").last ?? "") ?? 307
            return .respond(status: (300...399).contains(status) ? status : 307,
                            headers: ["Location": other.baseURL + "/v1/elsewhere"])
        }
        defer { http.stop() }
        let bearer = ["Authorization": "Bearer \(Self.token.rawValue)"]
        var cases: [(String, HTTPRequest)] = [301, 302, 303, 307, 308].map { status in
            ("GET with a bearer token, \(status)", request(.get, http.baseURL, "/v1/members/me/\(status)", headers: bearer))
        }
        cases += [307, 308].map { status in
            ("POST of a sign-in body, \(status)", request(.post, http.baseURL, "/v1/sign-in/\(status)",
                                                        headers: ["Content-Type": "application/json"], body: Self.signInBody))
        }
        cases.append(("GET with an API key", request(.get, http.baseURL, "/v1/posts/302", headers: ["X-Api-Key": Self.shortSecret])))
        let transport = transport()
        for (name, request) in cases {
            let error = await transportError(sending: request, through: transport)
            #expect(error?.kind == .redirectRefused, "\(name): \(String(describing: error))")
            #expect(error?.isTransient == false, "\(name)")
            let refusal = error?.underlying as? CrossOriginRedirect
            #expect(refusal?.from == "http://127.0.0.1:\(http.port)", "\(name)")
            #expect(refusal?.to == "http://127.0.0.1:\(other.port)", "\(name)")
            let text = String(describing: error)
            #expect(text.contains("127.0.0.1:\(http.port)") && text.contains("127.0.0.1:\(other.port)"), "\(name): \(text)")
            #expect(!text.contains(Self.token.rawValue) && !text.contains(Self.shortSecret) && !text.contains("correct-horse"), "\(text)")
        }
        #expect(http.requests.count == cases.count)

        let networkError = await networkError(sending: .remove(id: 4), through: try server(http))
        #expect(networkError?.kind == .transport)
        #expect((networkError?.underlying as? TransportError)?.kind == .redirectRefused, "\(String(describing: networkError))")
        #expect(networkError?.isTransient == false)
        #expect(!String(describing: networkError).contains(Self.token.rawValue))

        #expect(other.requests.isEmpty, "another origin received \(other.requests.map { "\($0.method) \($0.target)" })")
    }

    /// A request without a credential follows a redirect to another origin, as `URLSession` would.
    public func crossOriginRedirectWithoutACredentialIsFollowed() async throws {
        let other = try LoopbackHTTPServer { _ in .json(200, #"{"id":1,"content":"elsewhere"}"#) }
        defer { other.stop() }
        let http = try LoopbackHTTPServer { _ in .respond(status: 302, headers: ["Location": other.baseURL + "/v1/elsewhere"]) }
        defer { http.stop() }
        let (data, response) = try await transport().send(request(.get, http.baseURL, "/v1/public", headers: ["Accept": "application/json"]))
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("elsewhere"))
        #expect(other.requests.map(\.target) == ["/v1/elsewhere"])
    }

    /// Within one origin a redirect keeps working with its credential: a GET's bearer token
    /// follows a trailing-slash redirect (a relative `Location`), and a 307 to an absolute
    /// URL of the same origin re-sends a POST's body.
    public func sameOriginRedirectKeepsItsCredential() async throws {
        let http = try LoopbackHTTPServer { request in
            switch request.target {
            case "/v1/posts": .respond(status: 308, headers: ["Location": "/v1/posts/"])
            case "/v1/sign-in": .respond(status: 307, headers: ["Location": "http://\(request.header("Host") ?? "")/v1/sign-in/"])
            default: .respond(status: 200, headers: ["Content-Type": "application/json"], body: request.body.isEmpty ? Data("{}".utf8) : request.body)
            }
        }
        defer { http.stop() }
        let transport = transport()
        let (_, listed) = try await transport.send(request(.get, http.baseURL, "/v1/posts", headers: ["Authorization": "Bearer \(Self.token.rawValue)"]))
        #expect(listed.statusCode == 200)
        let (echoed, signedIn) = try await transport.send(request(.post, http.baseURL, "/v1/sign-in",
                                                                  headers: ["Content-Type": "application/json"], body: Self.signInBody))
        #expect(signedIn.statusCode == 200)
        #expect(echoed == Self.signInBody)
        let requests = http.requests
        #expect(requests.map(\.target) == ["/v1/posts", "/v1/posts/", "/v1/sign-in", "/v1/sign-in/"])
        #expect(requests.count == 4 && requests[1].header("Authorization") == "Bearer \(Self.token.rawValue)")
        #expect(requests.count == 4 && requests[3].method == "POST" && requests[3].body == Self.signInBody)
    }
}
