import AppSDKHarness
import Foundation
import NetworkService
import Testing

extension CLITests {
    /// `app-oauth sign-in --dpop` (issue 36, front ends): the session is bound to a key kept in
    /// the store, every command proves it, `status` says so, and no private key, proof or
    /// nonce is ever printed. Against the scripted ``FakeProvider``, which takes proofs.
    @Suite("app-oauth with DPoP")
    struct OAuthDPoPTests {
        /// The DPoP key a plain store file holds, as the store writes it.
        struct StoredKey {
            let algorithm: String
            /// The private key, base64url: what must never be printed.
            let d: String
            let publicKey: DPoPPublicKey
            let accessTokenType: String?
        }

        /// The key stored in the file store `name`.
        static func storedKey(_ cli: CLIProcess, _ name: String) throws -> StoredKey {
            let data = try Data(contentsOf: cli.folder.appendingPathComponent(name))
            let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let credentials = try #require(file["credentials"] as? [String: Any], "no session stored")
            let key = try #require(credentials["dpopKey"] as? [String: Any], "the stored session has no DPoP key")
            return StoredKey(algorithm: try #require(key["alg"] as? String), d: try #require(key["d"] as? String),
                             publicKey: try publicKey(jwk: try #require(key["jwk"] as? [String: Any])),
                             accessTokenType: credentials["accessTokenType"] as? String)
        }

        /// The public key of a JWK object (OKP or EC).
        static func publicKey(jwk: [String: Any]) throws -> DPoPPublicKey {
            let crv = try #require(jwk["crv"] as? String)
            let text = try #require(jwk["x"] as? String)
            let x = try #require(base64URL(text))
            if let y = jwk["y"] as? String { return .ec(crv: crv, x: x, y: try #require(base64URL(y))) }
            return .okp(crv: crv, x: x)
        }

        /// The bytes of base64url `text` (no padding), `nil` when it is not.
        static func base64URL(_ text: String) -> [UInt8]? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64).map { Array($0) }
        }

        /// The header and payload of the compact JWS `proof`.
        static func parts(of proof: String) throws -> (header: [String: Any], payload: [String: Any]) {
            let segments = proof.split(separator: ".", omittingEmptySubsequences: false)
            try #require(segments.count == 3, "a proof is not a compact JWS")
            func object(_ segment: Substring) throws -> [String: Any] {
                let bytes = try #require(base64URL(String(segment)))
                return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            }
            return (try object(segments[0]), try object(segments[1]))
        }

        @Test("sign-in --device --dpop: status says DPoP-bound with the stored key's thumbprint, token, whoami, a renewal and sign-out prove that key; nothing secret is printed")
        func deviceSignInBindsTheSession() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("D", FakeProvider.Settings(expiresIn: 2, dpopAlgorithms: ["EdDSA", "ES256"]))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            var outputs: [CLIProcess.Outcome] = []

            // `--dpop` without a value, followed by another option: an EdDSA key.
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--device", "--scope", "openid",
                                                         "--dpop"] + store)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            outputs.append(signIn)
            let key = try Self.storedKey(cli, "oauth.json")
            #expect(key.algorithm == "EdDSA")
            #expect(key.accessTokenType == "DPoP", "the provider's DPoP token type is stored")
            let thumbprint = key.publicKey.thumbprint
            let line = "DPoP-bound (EdDSA, key \(thumbprint.prefix(8))…)"
            #expect(signIn.output.contains(line), "\(signIn)")
            #expect(try cli.profile(beside: "oauth.json")?["dpop"] as? String == "eddsa")

            let status = try await cli.run("app-oauth", ["status"] + store)
            #expect(status.status == Exit.ok, "\(status)")
            #expect(status.output.contains("session: \(line)"), "\(status)")
            let statusJSON = try await cli.run("app-oauth", ["status", "--json"] + store)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(statusJSON.output.utf8)) as? [String: Any])
            let dpop = try #require(object["dpop"] as? [String: Any], "\(statusJSON)")
            #expect(dpop["algorithm"] as? String == "EdDSA")
            #expect(dpop["thumbprint"] as? String == thumbprint)
            outputs += [status, statusJSON]

            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.ok, "\(token)")
            #expect(token.output.trimmingCharacters(in: .whitespacesAndNewlines) == (try cli.storedAccessToken("oauth.json")))
            #expect(!token.errorOutput.contains(key.d))
            // whoami asks userinfo with the DPoP token and a proof carrying its hash (ath).
            let whoami = try await cli.run("app-oauth", ["whoami", "--json"] + store)
            #expect(whoami.status == Exit.ok, "\(whoami)")
            outputs.append(whoami)
            let userinfo = try #require(provider.fake.requests(.get, "/userinfo").last)
            #expect(userinfo.header("Authorization")?.hasPrefix("DPoP ") == true, "userinfo was not asked with the DPoP token")
            let userinfoProof = try Self.parts(of: try #require(userinfo.header("DPoP"), "userinfo was asked without a proof"))
            #expect(userinfoProof.payload["ath"] != nil && userinfoProof.payload["htm"] as? String == "GET")

            // A renewal (the 2-second token expired) proves the same key, with the provider's latest nonce.
            try await Task.sleep(for: .seconds(2.2))
            let renewed = try await cli.run("app-oauth", ["token"] + store)
            #expect(renewed.status == Exit.ok, "\(renewed)")
            let refreshes = provider.fake.requests(.post, "/token").filter { $0.form["grant_type"] == "refresh_token" }
            #expect(!refreshes.isEmpty, "no renewal was made")
            #expect(try Self.storedKey(cli, "oauth.json").publicKey == key.publicKey, "the session changed key")

            let signOut = try await cli.run("app-oauth", ["sign-out"] + store)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            outputs.append(signOut)
            #expect(!provider.revokedTokens.isEmpty)

            // Every token request, the userinfo calls and the revocations carried a proof of the
            // stored key; the proofs after the first answer carried a nonce the provider gave.
            let proved = provider.fake.requests.filter { ["/token", "/userinfo", "/revoke"].contains($0.path) }
            #expect(proved.count >= 5)
            for request in proved {
                let proof = try Self.parts(of: try #require(request.header("DPoP"), "\(request.path) without a proof"))
                #expect(proof.header["typ"] as? String == "dpop+jwt" && proof.header["alg"] as? String == "EdDSA")
                #expect(try Self.publicKey(jwk: try #require(proof.header["jwk"] as? [String: Any])) == key.publicKey,
                        "\(request.path) proved another key")
            }
            let nonces = provider.nonces
            #expect(!nonces.isEmpty)
            let carried = try provider.proofs.compactMap { try Self.parts(of: $0).payload["nonce"] as? String }
            #expect(!carried.isEmpty && carried.allSatisfy(nonces.contains), "the proofs carried no nonce the provider gave")

            let after = try await cli.run("app-oauth", ["status"] + store)
            #expect(after.status == Exit.notSignedIn, "\(after)")
            outputs.append(after)

            // No private key, proof, nonce or refresh token in any output; no access token but
            // on token's own stdout (the provider's tokens all start with its name).
            let secrets = [key.d, "D-refresh-"] + provider.proofs + nonces
            for outcome in outputs + [token, renewed] {
                for secret in secrets {
                    #expect(!outcome.output.contains(secret) && !outcome.errorOutput.contains(secret), "a secret was printed: exit \(outcome.status)")
                }
                #expect(!outcome.errorOutput.contains("D-access-"), "an access token on stderr")
            }
            for outcome in outputs {
                #expect(!outcome.output.contains("D-access-"), "an access token was printed")
            }
        }

        @Test("sign-in --client-credentials --dpop es256: the session is bound to a P-256 key, and token renews with it")
        func es256() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("E", FakeProvider.Settings(expiresIn: 2, dpopAlgorithms: ["ES256"]))
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            let secretFile = cli.folder.appendingPathComponent("client-secret")
            try Data((FakeProvider.clientSecret + "\n").utf8).write(to: secretFile)
            let signIn = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "job", "--client-credentials",
                                                         "--client-secret-file", secretFile.path, "--dpop", "es256", "--json"] + store)
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let key = try Self.storedKey(cli, "oauth.json")
            #expect(key.algorithm == "ES256")
            #expect(signIn.output.contains(key.publicKey.thumbprint), "\(signIn)")
            #expect(!signIn.output.contains(key.d) && !signIn.errorOutput.contains(key.d))

            try await Task.sleep(for: .seconds(2.2))
            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.ok, "\(token)")
            let grants = provider.fake.requests(.post, "/token")
            #expect(grants.count >= 2, "the token was not renewed")
            for grant in grants {
                let proof = try Self.parts(of: try #require(grant.header("DPoP"), "a token request without a proof"))
                #expect(proof.header["alg"] as? String == "ES256")
                #expect(try Self.publicKey(jwk: try #require(proof.header["jwk"] as? [String: Any])) == key.publicKey)
            }
            let status = try await cli.run("app-oauth", ["status"] + store)
            #expect(status.output.contains("DPoP-bound (ES256, key \(key.publicKey.thumbprint.prefix(8))…)"), "\(status)")
        }

        @Test("sign-in --dpop at a provider without DPoP: refused (64) before any token request, nothing stored; a bearer session's status says bearer")
        func providerWithoutDPoP() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let provider = try FakeProvider("B")
            defer { provider.stop() }
            let store = cli.fileStore("oauth.json")
            let refused = try await cli.run("app-oauth", ["sign-in", "--issuer", provider.issuer, "--client-id", "cli", "--device", "--dpop", "eddsa"] + store)
            #expect(refused.status == Exit.usage, "\(refused)")
            #expect(refused.errorOutput.contains("DPoP"), "\(refused)")
            #expect(!provider.paths.contains("/token") && !provider.paths.contains("/device"), "\(provider.paths)")
            #expect(try cli.storedAccessToken("oauth.json") == nil)

            let bearer = try await cli.signInClientCredentials(provider, store)
            #expect(bearer.status == Exit.ok, "\(bearer)")
            #expect(provider.proofs.isEmpty, "a bearer sign-in sent a proof")
            let status = try await cli.run("app-oauth", ["status"] + store)
            #expect(status.output.contains("session: bearer"), "\(status)")
            let json = try await cli.run("app-oauth", ["status", "--json"] + store)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            #expect(object["dpop"] is NSNull, "\(json)")
        }

        @Test("--dpop with an unknown kind is a usage error (64) naming the kinds")
        func unknownKind() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let outcome = try await cli.run("app-oauth", ["sign-in", "--issuer", "http://127.0.0.1:9/o", "--client-id", "cli", "--dpop", "rs256"]
                + cli.fileStore("oauth.json"))
            #expect(outcome.status == Exit.usage, "\(outcome)")
            #expect(outcome.errorOutput.contains("eddsa") && outcome.errorOutput.contains("es256"), "\(outcome)")
        }
    }
}
