import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What the HTTP layer does with hostile `DPoP` fields: every one is refused with 400 (token
/// routes) or 401 (resources) `invalid_dpop_proof`, never a 500, and no answer repeats the proof.
@Suite("Hostile DPoP fields at the reference server")
struct DPoPHostileInputTests {
    static let signUpBody = #"{"email":"nat@example.com","password":"password-1","nickname":"nick"}"#

    /// Expects a 400 `invalid_dpop_proof` whose body and headers do not contain `proof`.
    static func expectRefused(_ response: TestResponse, _ proof: String, message: String? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == .badRequest, "\(response.status)", sourceLocation: sourceLocation)
        #expect(response.errorCode == "invalid_dpop_proof", "\(response.text)", sourceLocation: sourceLocation)
        if let message { #expect(response.errorMessage == message, sourceLocation: sourceLocation) }
        let echoed = response.text + response.headers.map { $0.value }.joined()
        #expect(!echoed.contains(proof.prefix(40)), "the answer repeats the proof", sourceLocation: sourceLocation)
    }

    @Test("a proof longer than 4 KiB and one of 1 MiB are refused by size, before any parsing")
    func absurdSizes() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required)) { api in
            for size in [4_097, 1 << 20] {
                let proof = String(repeating: "a", count: size / 3) + "." + String(repeating: "b", count: size / 3) + "."
                    + String(repeating: "c", count: size - 2 * (size / 3) - 2)
                let response = try await api.send(.post, "/v1/auth/sign-up", proof: proof, json: Self.signUpBody)
                Self.expectRefused(response, proof, message: "The DPoP proof is malformed (size).")
            }
        }
    }

    @Test("several DPoP fields, or two proofs in one field, are refused even when each proof is valid")
    func severalProofs() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required)) { api in
            let key = DPoPTestKey()
            let first = key.proof(.post, "/v1/auth/sign-up")
            let second = key.proof(.post, "/v1/auth/sign-up")
            var headers: HTTPFields = [.contentType: "application/json"]
            headers.append(HTTPFields.Element(name: .dpopProof, value: first))
            headers.append(HTTPFields.Element(name: .dpopProof, value: second))
            let twoFields = try await api.client.execute(uri: "/v1/auth/sign-up", method: .post, headers: headers,
                                                         body: ByteBuffer(string: Self.signUpBody))
            Self.expectRefused(twoFields, first, message: "A request may carry only one DPoP header.")
            let joined = try await api.send(.post, "/v1/auth/sign-up", proof: first + ", " + second, json: Self.signUpBody)
            Self.expectRefused(joined, first)
            // Nothing was created: the address signs up with one proof.
            #expect(try await api.signUp("nat@example.com", key: key).status == .created)
        }
    }

    @Test("a proof made for another path, another method or another host is refused; one without the query is accepted")
    func proofsForAnotherRequest() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required)) { api in
            let key = DPoPTestKey()
            let otherPath = key.proof(.post, "/v1/auth/sign-in")
            Self.expectRefused(try await api.send(.post, "/v1/auth/sign-up", proof: otherPath, json: Self.signUpBody), otherPath,
                               message: "The DPoP proof's htu is not this request's URI.")
            let otherMethod = key.proof(.get, "/v1/auth/sign-up")
            Self.expectRefused(try await api.send(.post, "/v1/auth/sign-up", proof: otherMethod, json: Self.signUpBody), otherMethod,
                               message: "The DPoP proof's htm is not this request's method.")
            let otherHost = key.proof(.post, "/v1/auth/sign-up", claims: ["htu": "http://attacker.example/v1/auth/sign-up"])
            Self.expectRefused(try await api.send(.post, "/v1/auth/sign-up", proof: otherHost, json: Self.signUpBody), otherHost)
            let https = key.proof(.post, "/v1/auth/sign-up", claims: ["htu": "https://localhost/v1/auth/sign-up"])
            Self.expectRefused(try await api.send(.post, "/v1/auth/sign-up", proof: https, json: Self.signUpBody), https)

            let tokens = try await api.boundSignUp("oz@example.com", key: key)
            let path = "/v1/questions?pageSize=1"
            let withQuery = try await api.send(.get, path, proof: key.proof(.get, path, accessToken: tokens.accessToken), token: tokens.accessToken)
            #expect(withQuery.status == .ok, "\(withQuery.text)")
        }
    }

    @Test("bytes that are not base64url (obs-text, DEL, a tab, spaces) are refused as malformed")
    func notBase64URL() async throws {
        try await TestServer.run(configuration: TestServer.dpopConfiguration(.required)) { api in
            let proof = DPoPTestKey().proof(.post, "/v1/auth/sign-up")
            for bad in ["\u{7F}" + proof, proof.replacingOccurrences(of: ".", with: ".\t"), "é" + proof, "   ", ".", ".."] {
                var headers: HTTPFields = [.contentType: "application/json"]
                headers.append(HTTPFields.Element(name: .dpopProof, lenientValue: Array(bad.utf8)))
                let response = try await api.client.execute(uri: "/v1/auth/sign-up", method: .post, headers: headers,
                                                            body: ByteBuffer(string: Self.signUpBody))
                Self.expectRefused(response, bad.count > 40 ? bad : proof)
            }
        }
    }

    @Test("on the wire: a control character in the DPoP field and a request without Host get a 400 and no 500, and the server goes on")
    func controlCharactersOnTheWire() async throws {
        try await TestServer.run(.live, configuration: TestServer.dpopConfiguration(.required)) { api in
            let port = try #require(api.client.port)
            let proof = DPoPTestKey().proof(.post, "/v1/auth/anonymous")
            let broken = String(proof.prefix(20)) + "\u{01}" + String(proof.dropFirst(20))
            let socket = try RawSocket(port: port)
            await socket.send("POST /v1/auth/anonymous HTTP/1.1\r\nHost: localhost\r\nDPoP: \(broken)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let answer = await socket.readUntilClosed(timeout: 10)
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text.prefix(60))")
            #expect(answer.closed && answer.seconds < 5, "closed \(answer.closed) after \(answer.seconds) s")
            #expect(!answer.text.contains(proof.prefix(20)))

            let noHost = try RawSocket(port: port)
            await noHost.send("POST /v1/auth/anonymous HTTP/1.0\r\nDPoP: \(proof)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let noHostAnswer = await noHost.readUntilClosed(timeout: 10)
            #expect(noHostAnswer.text.hasPrefix("HTTP/1.0 400") || noHostAnswer.text.hasPrefix("HTTP/1.1 400"), "\(noHostAnswer.text.prefix(60))")
            #expect(noHostAnswer.text.contains("invalid_dpop_proof"))
            #expect(noHostAnswer.closed && noHostAnswer.seconds < 5, "closed \(noHostAnswer.closed) after \(noHostAnswer.seconds) s")

            let key = DPoPTestKey()
            #expect(try await api.send(.post, "/v1/auth/anonymous", proof: key.proof(.post, "/v1/auth/anonymous")).status == .created)
        }
    }
}
