import Foundation
import NetworkService
import Testing

/// DPoP (RFC 9449): what a transport must do with a proof, whoever made it.
extension TransportConformance {
    /// RFC 9449 Figure 2's proof, as a `DPoP` header carries it.
    static let proof = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"

    /// A `DPoP` header and an `Authorization: DPoP …` header reach the server byte for byte,
    /// and the server's `DPoP-Nonce` (RFC 9449 §8.2) comes back readable in any case.
    public func dpopProofArrivesAsSentAndItsNonceComesBack() async throws {
        let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"
        let http = try LoopbackHTTPServer { _ in
            .respond(status: 200, headers: ["Content-Type": "application/json", "DPoP-Nonce": nonce], body: Data("{}".utf8))
        }
        defer { http.stop() }
        let (_, response) = try await transport().send(request(
            .get, http.baseURL, "/v1/members/me",
            headers: ["Authorization": "DPoP \(Self.token.rawValue)", "DPoP": Self.proof]))
        #expect(response.statusCode == 200)
        #expect(response.value(forHeaderField: "DPoP-Nonce") == nonce)
        #expect(response.value(forHeaderField: "dpop-nonce") == nonce)
        let received = try #require(http.requests.first)
        #expect(received.header("DPoP") == Self.proof)
        #expect(received.header("Authorization") == "DPoP \(Self.token.rawValue)")
    }

    /// A request carrying a `DPoP` header follows no redirect, not even within its origin (its
    /// proof names one URL): every status is refused with `.redirectRefused`, the error says
    /// why and shows neither the proof nor the token, and the server sees the first request only.
    public func redirectOfADPoPProofIsRefused() async throws {
        let http = try LoopbackHTTPServer { request in
            let status = Int(request.target.split(separator: "/").last ?? "") ?? 307
            return .respond(status: status, headers: ["Location": "/v1/elsewhere"])
        }
        defer { http.stop() }
        let transport = transport()
        var cases: [(String, HTTPRequest)] = [301, 302, 303, 307, 308].map { status in
            ("GET with a proof and a DPoP token, \(status)",
             request(.get, http.baseURL, "/v1/members/me/\(status)",
                     headers: ["Authorization": "DPoP \(Self.token.rawValue)", "DPoP": Self.proof]))
        }
        cases.append(("POST of a token request with a proof, 307",
                      request(.post, http.baseURL, "/token/307", headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": Self.proof],
                              body: Data("grant_type=refresh_token&refresh_token=r".utf8))))
        for (name, request) in cases {
            let error = await transportError(sending: request, through: transport)
            #expect(error?.kind == .redirectRefused, "\(name): \(String(describing: error))")
            #expect(error?.isTransient == false, "\(name)")
            let refusal = error?.underlying as? CrossOriginRedirect
            #expect(refusal?.from == "http://127.0.0.1:\(http.port)" && refusal?.to == refusal?.from, "\(name)")
            let text = String(describing: error)
            #expect(text.contains("DPoP proof"), "\(name): \(text)")
            #expect(!text.contains(Self.proof) && !text.contains(Self.token.rawValue), "\(name): \(text)")
        }
        #expect(!http.requests.contains { $0.target == "/v1/elsewhere" }, "\(http.requests.map(\.target))")
        #expect(http.requests.count == cases.count)
    }
}
