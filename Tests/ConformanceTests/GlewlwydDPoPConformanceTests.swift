#if EncryptedTokenStore
import AppSDKHarness
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

/// DPoP-bound sessions (RFC 9449, ``OAuthProvider/dpop``) against glewlwyd 2.7.5's DPoP
/// instances (`GLEWLWYD_DPOP=1 scripts/lib/glewlwyd.sh`), with EdDSA keys, which it accepts:
/// sign-in, calls, refresh and sign-out through the SDK's public API; copied tokens sent by
/// hand. What glewlwyd does that RFC 9449 does not (docs/OTHER-SERVERS.md, "glewlwyd and DPoP"):
/// it refuses a proof with 403, accepts a proof from any key at userinfo (so a copied access
/// token is refused there only as Bearer or without a proof, which is what is tested), and
/// refuses revocation by public clients.
///
/// `scripts/test` runs these as the `glewlwyd-dpop` phase (`--filter GlewlwydDPoP`), after the
/// `glewlwyd` phase, against the same server.
@Suite("OpenID Connect conformance with DPoP (glewlwyd)", .serialized, .glewlwydDPoP)
struct GlewlwydDPoPConformanceTests {
    static let scopes = ["openid", "conformance"]
    let folder: URL
    let api: Server

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glewlwyd-dpop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        api = try GlewlwydTestServer.server()
    }

    /// A DPoP session (EdDSA keys) of `clientID` at the DPoP instance (`nonces`: the one that
    /// requires nonces), its authorization-server requests counted by `transport`.
    func session(clientID: String, clientSecret: String? = nil, nonces: Bool = false, transport: CountingTransport,
                 clientCredentials: Bool = false) async throws -> (SessionService, OAuthProvider) {
        var provider = try await OAuthProvider.discover(issuer: try GlewlwydDPoPTestServer.issuerURL(nonces: nonces), clientID: clientID,
                                                        clientSecret: clientSecret, transport: transport)
        provider.dpop = .eddsa
        let configuration: SessionService.Configuration = clientCredentials
            ? .clientCredentials(provider, scopes: [GlewlwydTestServer.serviceScope]) : .oauth2(provider)
        let store = FileTokenStore(fileURL: folder.appendingPathComponent("\(clientID)-\(UUID().uuidString.prefix(6)).json"))
        return (SessionService(server: api, tokenStore: store, configuration: configuration), provider)
    }

    /// The browser flow on the registered redirect port, the test playing the user; returns the
    /// authorization URL too.
    func browserSignIn(transport: CountingTransport) async throws -> (SessionService, OAuthProvider, URL) {
        let port = try #require(GlewlwydTestServer.redirectPort)
        let (session, provider) = try await self.session(clientID: GlewlwydTestServer.browserClientID, transport: transport)
        let user = try GlewlwydTestUser.conformance()
        let opened = LockedValue<URL?>(nil)
        let (outcome, page) = try await UserInTheLoop.run(signIn: { open in
            try await session.signIn(with: .browser(provider, scopes: Self.scopes, redirectPort: port, timeout: .seconds(30)) { url in
                try await open(url)
            })
        }, user: { url in
            opened.withLock { $0 = url }
            return try await user.authorize(url)
        })
        _ = try outcome.get()
        #expect(page?.status == 200)
        return (session, provider, try #require(opened.withLock { $0 }))
    }

    /// The device flow, the test approving the code through glewlwyd's API.
    func deviceSignIn(nonces: Bool = false, transport: CountingTransport) async throws -> (SessionService, OAuthProvider) {
        let (session, provider) = try await self.session(clientID: GlewlwydTestServer.deviceClientID, nonces: nonces, transport: transport)
        let user = try GlewlwydTestUser.conformance()
        let (outcome, _) = try await UserInTheLoop.run(signIn: { show in
            try await session.signIn(with: .device(provider, scopes: Self.scopes) { authorization in try await show(authorization) })
        }, user: { (authorization: DeviceAuthorization) in
            try await user.approve(verificationURI: authorization.verificationURI, userCode: authorization.userCode,
                                   clientID: GlewlwydTestServer.deviceClientID, scopes: Self.scopes)
        })
        _ = try outcome.get()
        return (session, provider)
    }

    /// The stored session: its key, and its access token bound to that key (`cnf.jkt`, RFC 9449 §6.1).
    static func expectBound(_ session: SessionService, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (Credentials, DPoPKey) {
        let stored = try #require(try await session.tokenStore.load(), sourceLocation: sourceLocation)
        let key = try #require(stored.dpopKey, sourceLocation: sourceLocation)
        #expect(key.algorithm == "EdDSA", sourceLocation: sourceLocation)
        #expect(stored.accessTokenType == "DPoP", sourceLocation: sourceLocation)
        let claims = try #require(JWTClaims(stored.accessToken.rawValue), sourceLocation: sourceLocation)
        #expect((claims.claims["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint, sourceLocation: sourceLocation)
        return (stored, key)
    }

    /// The thumbprint of the key a proof's header carries (an Ed25519 `jwk`).
    static func thumbprint(ofProof proof: String?) -> String? {
        guard let header = proof?.split(separator: ".").first, let bytes = Base64URL.decode(String(header)),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let jwk = object["jwk"] as? [String: Any], let x = (jwk["x"] as? String).flatMap(Base64URL.decode) else { return nil }
        return DPoPPublicKey.okp(crv: "Ed25519", x: x).thumbprint
    }

    /// Sleeps until 0.2 s after the stored access token expires.
    static func sleepPastExpiry(of session: SessionService) async throws {
        let expiresAt = try await session.tokenStore.load()?.accessTokenExpiresAt ?? Date()
        let seconds = expiresAt.timeIntervalSinceNow + 0.2
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }

    /// One request sent by hand, as someone holding a copied token would.
    func sendByHand(_ method: HTTPMethod, _ url: URL, form: [(String, String)]? = nil,
                    headers: [String: String] = [:]) async throws -> (status: Int, error: String?) {
        var fields = headers
        var body: Data?
        if let form {
            fields["Content-Type"] = "application/x-www-form-urlencoded"
            body = Data(form.map { FormEncoding.encode($0.0) + "=" + FormEncoding.encode($0.1) }.joined(separator: "&").utf8)
        }
        let (data, response) = try await URLSessionTransport(timeout: 20).send(HTTPRequest(method: method, url: url, headerFields: fields, body: body))
        let error = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? String
        return (response.statusCode, error)
    }

    /// A proof of a new key that is not the session's, for a `method` request to `url`.
    static func anotherKeysProof(_ method: HTTPMethod, _ url: URL, accessToken: AccessToken? = nil) throws -> String {
        try DPoPProofing(signer: try DPoPKeyKind.eddsa.signer(for: DPoPKeyKind.eddsa.make()), nonces: DPoPNonces())
            .proof(method: method, htu: url.absoluteString, origin: RedirectPolicy.origin(of: url), accessToken: accessToken)
    }

    // MARK: Sign-in, calls, sign-out

    @Test("browser sign-in bound to a key: dpop_jkt, token_type DPoP, cnf.jkt; userinfo through the session with DPoP and ath; a public client's sign-out ends locally")
    func browser() async throws {
        let transport = CountingTransport()
        let (session, provider, url) = try await browserSignIn(transport: transport)
        let (stored, key) = try await Self.expectBound(session)
        #expect(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "dpop_jkt" }?.value == key.thumbprint)
        let exchange = try #require(transport.exchanges(with: "token").last)
        #expect(exchange.status == 200)
        #expect(Self.thumbprint(ofProof: exchange.proof) == key.thumbprint)

        let claims = try await session.userInfo(from: provider)
        #expect(claims["name"]?.string == "Conformance User")
        let call = try #require(transport.exchanges(with: "userinfo").last)
        #expect(call.authorizationScheme == "DPoP")
        let proof = try #require(call.proof.flatMap(JWTClaims.init))
        #expect(proof.string("ath") == Base64URL.encode(SHA256.hash(Array(stored.accessToken.rawValue.utf8))))
        #expect(Self.thumbprint(ofProof: call.proof) == key.thumbprint)

        // glewlwyd refuses revocation by public clients (401): the session ends here all the same.
        let result = try await session.signOut()
        #expect(result.wasSignedIn)
        #expect(result.removedLocally)
        #expect(!result.serverConfirmed)
        #expect(transport.exchanges(with: "revoke").first?.status == 401)
        #expect(try await session.tokenStore.load() == nil)
        print("glewlwyd-dpop: browser sign-in bound to EdDSA key \(key.thumbprint.prefix(8))…: token_type DPoP, cnf.jkt matches; userinfo with DPoP + ath; public client's revocation 401, signed out locally")
    }

    @Test("device sign-in bound to a key; the refresh proves the stored key and the new access token is bound to it")
    func deviceAndRefresh() async throws {
        let transport = CountingTransport()
        let (session, provider) = try await deviceSignIn(transport: transport)
        let (first, key) = try await Self.expectBound(session)
        try await Self.sleepPastExpiry(of: session)
        _ = try await session.userInfo(from: provider)
        let refresh = try #require(transport.exchanges(with: "token").last)
        #expect(refresh.status == 200)
        #expect(Self.thumbprint(ofProof: refresh.proof) == key.thumbprint)
        let (renewed, sameKey) = try await Self.expectBound(session)
        #expect(renewed.refreshToken != first.refreshToken)
        #expect(sameKey == key)
        try await session.signOut()
        print("glewlwyd-dpop: device sign-in bound; refresh proved with the stored key, the new token's cnf.jkt is the same key")
    }

    @Test("a refresh token copied without its key is refused, with another key's proof and with none; the owner's session still refreshes")
    func copiedRefreshToken() async throws {
        let transport = CountingTransport()
        let (session, provider) = try await deviceSignIn(transport: transport)
        let (stored, _) = try await Self.expectBound(session)
        let endpoint = provider.metadata.tokenEndpoint
        let form = [("grant_type", "refresh_token"), ("refresh_token", stored.refreshToken), ("client_id", GlewlwydTestServer.deviceClientID)]
        let withOtherKey = try await sendByHand(.post, endpoint, form: form, headers: ["DPoP": try Self.anotherKeysProof(.post, endpoint)])
        #expect(withOtherKey.status >= 400 && withOtherKey.status < 500)
        #expect(withOtherKey.error == "invalid_dpop_proof")
        let withoutProof = try await sendByHand(.post, endpoint, form: form)
        #expect(withoutProof.status >= 400 && withoutProof.status < 500)

        try await Self.sleepPastExpiry(of: session)
        #expect(try await session.userInfo(from: provider)["name"]?.string == "Conformance User")
        #expect(try await session.tokenStore.load()?.refreshToken != stored.refreshToken)
        try await session.signOut()
        print("glewlwyd-dpop: copied refresh token refused with another key's proof (\(withOtherKey.status) \(withOtherKey.error ?? "")) and without a proof (\(withoutProof.status)); the owner refreshed")
    }

    @Test("an access token copied without its key is refused at userinfo as Bearer and as DPoP without a proof")
    func copiedAccessToken() async throws {
        let transport = CountingTransport()
        let (session, provider) = try await deviceSignIn(transport: transport)
        let (stored, _) = try await Self.expectBound(session)
        let userinfo = try #require(provider.metadata.userinfoEndpoint)
        let token = stored.accessToken.rawValue
        let asBearer = try await sendByHand(.get, userinfo, headers: ["Authorization": "Bearer " + token])
        let withoutProof = try await sendByHand(.get, userinfo, headers: ["Authorization": "DPoP " + token])
        #expect(asBearer.status == 401)
        #expect(withoutProof.status == 401)
        // The owner's call, with its proof, works (so the refusals above were about the key).
        #expect(try await session.userInfo(from: provider)["name"]?.string == "Conformance User")
        // Not tested: glewlwyd 2.7.5 takes a proof from any key at userinfo (docs/OTHER-SERVERS.md).
        try await session.signOut()
        print("glewlwyd-dpop: copied access token at userinfo: as Bearer \(asBearer.status), as DPoP without a proof \(withoutProof.status)")
    }

    @Test("the confidential client's bound token is revoked at sign-out, and then inactive")
    func confidentialSignOut() async throws {
        let transport = CountingTransport()
        let (session, provider) = try await self.session(clientID: GlewlwydTestServer.serviceClientID,
                                                         clientSecret: GlewlwydTestServer.serviceClientSecret,
                                                         transport: transport, clientCredentials: true)
        _ = try await session.signIn(with: .clientCredentials(provider, scopes: [GlewlwydTestServer.serviceScope]))
        let (stored, _) = try await Self.expectBound(session)
        let introspection = try #require(URL(string: provider.metadata.issuer.absoluteString + "/introspect"))
        let basic = "Basic " + Data("\(GlewlwydTestServer.serviceClientID):\(GlewlwydTestServer.serviceClientSecret)".utf8).base64EncodedString()
        func active() async throws -> Bool? {
            var request = HTTPRequest(method: .post, url: introspection,
                                      headerFields: ["Authorization": basic, "Content-Type": "application/x-www-form-urlencoded"])
            request.body = Data(("token=" + FormEncoding.encode(stored.accessToken.rawValue)).utf8)
            let (data, response) = try await URLSessionTransport(timeout: 20).send(request)
            #expect(response.statusCode == 200)
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["active"] as? Bool
        }
        #expect(try await active() == true)
        let result = try await session.signOut()
        #expect(result.serverConfirmed)
        let revocations = transport.exchanges(with: "revoke")
        #expect(!revocations.isEmpty && revocations.allSatisfy { $0.proof != nil && $0.status == 200 })
        #expect(try await active() == false)
        print("glewlwyd-dpop: the confidential client's DPoP-bound token revoked at sign-out (\(transport.exchanges(with: "revoke").map(\.status))), then inactive")
    }

    // MARK: Nonces

    @Test("nonces: each challenge at the token endpoint and at userinfo is answered by exactly one retry, with the challenge's nonce")
    func nonces() async throws {
        let transport = CountingTransport()
        let issuer = try GlewlwydDPoPTestServer.issuerURL(nonces: true)
        let origin = RedirectPolicy.origin(of: issuer)
        // A nonce glewlwyd never gave: the next proof of each kind is challenged.
        _ = DPoPNonces.shared.remember("stale-nonce-0", forOrigin: origin)
        let (session, provider) = try await deviceSignIn(nonces: true, transport: transport)
        _ = try await Self.expectBound(session)

        _ = DPoPNonces.shared.remember("stale-nonce-1", forOrigin: origin)
        #expect(try await session.userInfo(from: provider)["name"]?.string == "Conformance User")

        try await Self.sleepPastExpiry(of: session)
        _ = DPoPNonces.shared.remember("stale-nonce-2", forOrigin: origin)
        _ = try await session.userInfo(from: provider)

        var challenges: [String: Int] = [:]
        for endpoint in ["token", "userinfo"] {
            let exchanges = transport.exchanges(with: endpoint)
            for (index, exchange) in exchanges.enumerated() where exchange.isNonceChallenge {
                challenges[endpoint, default: 0] += 1
                let retry = try #require(index + 1 < exchanges.count ? exchanges[index + 1] : nil, "no retry after a challenge at \(endpoint)")
                #expect(!retry.isNonceChallenge, "a retry at \(endpoint) was challenged again")
                #expect(retry.proof.flatMap(JWTClaims.init)?.string("nonce") == exchange.nonce, "the retry at \(endpoint) did not carry the challenge's nonce")
            }
        }
        // At least the sign-in's first poll and the refresh, and the userinfo call after stale-nonce-1.
        #expect(challenges["token", default: 0] >= 2)
        #expect(challenges["userinfo", default: 0] >= 1)
        #expect(transport.exchanges.allSatisfy { $0.status < 500 })
        try await session.signOut()
        print("glewlwyd-dpop: nonce challenges answered by one retry each: token endpoint \(challenges["token", default: 0]), userinfo \(challenges["userinfo", default: 0]); \(transport.exchanges.count) requests in all")
    }
}
#endif
