import Foundation
import NetworkService
import Testing

/// Scenarios where the server answers: the transport returns every response as it came.
extension TransportConformance {
    /// A GET with a query and a bearer token reaches the server as written (percent-encoding
    /// kept), and the JSON answer decodes through `Server.send`.
    public func queryAndBearerTokenArriveAsWritten() async throws {
        let http = try LoopbackHTTPServer { _ in .json(200, #"{"id":3,"content":"ok"}"#) }
        defer { http.stop() }
        let item: ConformanceItem = try await server(http).send(
            ConformanceEndpoint.search([.equal("q", "a b&c"), .pageSize(2)]), accessToken: Self.token)
        #expect(item == ConformanceItem(id: 3, content: "ok"))
        let request = try #require(http.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/v1/samples?q=eq.a%20b%26c&pageSize=2")
        #expect(request.header("Authorization") == "Bearer \(Self.token.rawValue)")
    }

    /// A POST's body and header fields reach the server intact, and the answer's status,
    /// header fields and body come back intact; a JSON POST through `Server.send` decodes.
    public func headersAndBodyRoundTrip() async throws {
        let http = try LoopbackHTTPServer { request in
            .respond(status: 201, headers: ["Content-Type": "application/json", "X-Echo": request.header("X-Request-ID") ?? "none"],
                     body: request.body)
        }
        defer { http.stop() }
        let body = Data(#"{"id":9,"content":"한글 & more"}"#.utf8)
        let (data, response) = try await transport().send(request(
            .post, http.baseURL, "/v1/samples",
            headers: ["Content-Type": "application/json", "X-Request-ID": "r-42"], body: body))
        #expect(response.statusCode == 201)
        #expect(data == body)
        #expect(response.value(forHeaderField: "x-echo") == "r-42")
        #expect(response.value(forHeaderField: "content-type") == "application/json")
        let received = try #require(http.requests.first)
        #expect(received.method == "POST")
        #expect(received.body == body)
        #expect(received.header("x-request-id") == "r-42")

        let item: ConformanceItem = try await server(http).send(
            ConformanceEndpoint.create(ConformanceItem(id: 9, content: "한글 & more")), accessToken: Self.token)
        #expect(item == ConformanceItem(id: 9, content: "한글 & more"))
    }

    /// A megabyte goes up and comes back byte for byte.
    public func largeBodiesRoundTrip() async throws {
        let http = try LoopbackHTTPServer { request in .respond(status: 200, body: request.body) }
        defer { http.stop() }
        let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let (data, response) = try await transport().send(request(.put, http.baseURL, "/v1/blob", body: body))
        #expect(response.statusCode == 200)
        #expect(data.count == body.count)
        #expect(data == body)
    }

    /// A 204 comes back with an empty body, and `Server.send` without a result succeeds.
    public func noContentHasAnEmptyBody() async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { http.stop() }
        let (data, response) = try await transport().send(request(.delete, http.baseURL, "/v1/samples/4"))
        #expect(response.statusCode == 204)
        #expect(data.isEmpty)
        try await server(http).send(ConformanceEndpoint.remove(id: 4), accessToken: Self.token)
        #expect(http.requests.map(\.method) == ["DELETE", "DELETE"])
    }

    /// 401, 403, 404, 500 and 503 are returned with their bodies and header fields: turning
    /// statuses into errors is the SDK's job, not the transport's.
    public func errorStatusesAreReturnedNotThrown() async throws {
        let http = try LoopbackHTTPServer { request in
            let status = Int(request.target.split(separator: "/").last ?? "") ?? 400
            return .json(status, #"{"error":{"code":"status_\#(status)","message":"m"}}"#,
                         headers: status == 401 ? ["WWW-Authenticate": #"Bearer error="invalid_token""#] : [:])
        }
        defer { http.stop() }
        let transport = transport()
        for status in [401, 403, 404, 500, 503] {
            let (data, response) = try await transport.send(request(.get, http.baseURL, "/status/\(status)"))
            #expect(response.statusCode == status)
            #expect(String(decoding: data, as: UTF8.self).contains("status_\(status)"), "HTTP \(status)")
            if status == 401 {
                #expect(response.value(forHeaderField: "www-authenticate") == #"Bearer error="invalid_token""#)
            }
        }
    }

    /// Through `Server.send`, a 401 with a Bearer challenge is an authentication failure
    /// with the server's code and the challenge.
    public func unauthorizedIsAnAuthenticationFailure() async throws {
        let http = try LoopbackHTTPServer { _ in
            .json(401, #"{"error":{"code":"token_expired","message":"expired"}}"#,
                  headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        defer { http.stop() }
        let error = await networkError(sending: .remove(id: 4), through: try server(http))
        #expect(error?.kind == .httpStatus)
        #expect(error?.isAuthenticationFailure == true)
        #expect(error?.serverErrorCode == .tokenExpired)
        #expect(error?.authenticateChallenge?.hasPrefix("Bearer") == true)
    }

    /// A 401 comes back at once with its body and challenge, whatever the challenge: Basic
    /// (how RFC 6749 §5.2 tells a token endpoint to refuse a client secret), Digest, Bearer,
    /// several at once. The transport answers no challenge itself, so the 401 is the answer,
    /// well before the 6-second deadline; through `Server.send` it is the server's
    /// `invalid_client`, not a transient timeout. (FoundationNetworking held a Basic one
    /// until the deadline.)
    public func unauthorizedWithAnyChallengeIsReturnedAtOnce() async throws {
        let challenges = [#"Basic realm="x""#, #"basic realm="token endpoint", charset="UTF-8""#,
                          #"Digest realm="x", nonce="bm9uY2U", qop="auth""#, #"Bearer error="invalid_token""#,
                          #"Bearer realm="api", error="invalid_token""#, #"Bearer realm="api", Basic realm="x""#]
        let body = #"{"error":"invalid_client","error_description":"client authentication failed"}"#
        let http = try LoopbackHTTPServer { request in
            let index = request.target.hasPrefix("/challenge/") ? Int(request.target.dropFirst(11)) ?? 0 : 0
            return .json(401, body, headers: ["WWW-Authenticate": challenges[index]])
        }
        defer { http.stop() }
        let transport = transport(timeout: 6)
        let clientAuthentication = "Basic " + Data("client:\(Self.shortSecret)".utf8).base64EncodedString()
        for (index, challenge) in challenges.enumerated() {
            let started = ContinuousClock.now
            do {
                let (data, response) = try await transport.send(request(
                    .post, http.baseURL, "/challenge/\(index)",
                    headers: ["Authorization": clientAuthentication, "Content-Type": "application/x-www-form-urlencoded"],
                    body: Data("grant_type=client_credentials".utf8)))
                let waited = ContinuousClock.now - started
                #expect(response.statusCode == 401, "\(challenge)")
                #expect(String(decoding: data, as: UTF8.self) == body, "\(challenge)")
                #expect(response.value(forHeaderField: "www-authenticate") == challenge)
                #expect(waited < .seconds(3), "\(challenge): answered after \(waited)")
            } catch {
                Issue.record("\(challenge): threw \(error) after \(ContinuousClock.now - started)")
            }
        }
        let error = await networkError(sending: .remove(id: 4), through: try server(http, timeout: 6))
        #expect(error?.statusCode == 401, "\(String(describing: error))")
        #expect(error?.serverErrorCode == "invalid_client")
        #expect(error?.isTransient == false)
    }

    /// A redirect is followed (as `URLSession` follows it) and the final answer returned.
    public func redirectsAreFollowed() async throws {
        let http = try LoopbackHTTPServer { request in
            guard request.target == "/start" else { return .json(200, #"{"id":1,"content":"arrived"}"#) }
            return .respond(status: 302, headers: ["Location": "http://\(request.header("Host") ?? "127.0.0.1")/final"])
        }
        defer { http.stop() }
        let (data, response) = try await transport().send(request(.get, http.baseURL, "/start"))
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("arrived"))
        #expect(http.requests.map(\.target) == ["/start", "/final"])
    }
}
