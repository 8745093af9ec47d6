import AppSDKHarness
import Foundation
import NetworkService
import Testing

/// `app-oauth` run as a process against the real OAuth server (django-oauth-toolkit, which
/// `scripts/test` starts for this phase and the conformance tests), the test playing the user
/// where the device flow needs one. Serialized: they read the server's counters.
@Suite("app-oauth against django-oauth-toolkit", .serialized, .oauthServer)
struct OAuthCLITests {
    /// `sign-in` and `--issuer`, `--client-id` for `client`.
    static func signIn(_ client: String, _ flow: String) throws -> [String] {
        ["sign-in", "--issuer", try OAuthTestServer.issuerURL().absoluteString, "--client-id", client, flow]
    }

    /// Reads the growing stderr file until it shows the user code (`... enter the code CODE`).
    static func userCode(in file: URL, seconds: Double = 60) async throws -> String {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if let range = text.range(of: "enter the code ") {
                let code = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                if !code.isEmpty, text[range.upperBound...].dropFirst(code.count).first?.isNewline == true { return String(code) }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSetupError("app-oauth sign-in --device printed no user code within \(Int(seconds)) s: \((try? String(contentsOf: file, encoding: .utf8)) ?? "")")
    }

    @Test("sign-in --device: the user enters the code it prints; token then works from another process on the same store, sign-out revokes")
    func device() async throws {
        let cli = try CLIProcess()
        defer { cli.remove() }
        let store = cli.fileStore("oauth.json")
        let stderrFile = cli.folder.appendingPathComponent("sign-in.err")
        let signIn = Task {
            try await cli.run("app-oauth", try Self.signIn(OAuthTestServer.deviceClientID, "--device") + ["--json"] + store,
                              timeout: 120, errorFile: stderrFile)
        }
        let code: String
        do {
            code = try await Self.userCode(in: stderrFile)
        } catch {
            signIn.cancel()
            throw error
        }
        try await OAuthTestUser.conformance().decide(userCode: code, .approve)
        let signedIn = try await signIn.value
        #expect(signedIn.status == Exit.ok, "\(signedIn)")
        #expect(signedIn.output.contains("\"signedIn\" : true"), "\(signedIn)")
        let stored = try cli.storedTokens("oauth.json")

        // Another process, the same store: a fresh access token on stdout, alone.
        let token = try await cli.run("app-oauth", ["token"] + store)
        #expect(token.status == Exit.ok, "\(token)")
        let accessToken = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!accessToken.isEmpty && !accessToken.contains("\n"))
        let me: Me = try await OAuthTestServer.server().send(MeEndpoint(), accessToken: AccessToken(accessToken))
        #expect(me.username == OAuthTestServer.username)

        let whoami = try await cli.run("app-oauth", ["whoami", "--json"] + store)
        #expect(whoami.status == Exit.ok, "\(whoami)")
        #expect(whoami.output.contains("\"preferred_username\" : \"\(OAuthTestServer.username)\""), "\(whoami)")
        let status = try await cli.run("app-oauth", ["status"] + store)
        #expect(status.status == Exit.ok, "\(status)")
        #expect(status.output.contains("device"), "\(status)")

        try await OAuthTestServer.reset()
        let signOut = try await cli.run("app-oauth", ["sign-out"] + store)
        #expect(signOut.status == Exit.ok, "\(signOut)")
        #expect(try await OAuthTestServer.counters().revokeCalls >= 1)
        let after = try await cli.run("app-oauth", ["token"] + store)
        #expect(after.status == Exit.notSignedIn, "\(after)")
        let dead = await #expect(throws: NetworkError.self) {
            let _: Me = try await OAuthTestServer.server().send(MeEndpoint(), accessToken: AccessToken(accessToken))
        }
        #expect(dead?.statusCode == 401)

        // Nothing secret anywhere but token's own stdout.
        let secrets = stored + [accessToken]
        for outcome in [signedIn, whoami, status, signOut, after] {
            for secret in secrets {
                #expect(!outcome.output.contains(secret) && !outcome.errorOutput.contains(secret), "a token was printed: \(outcome.status)")
            }
        }
        #expect(!token.errorOutput.contains(accessToken))
    }

    @Test("sign-in --client-credentials into the encrypted store; token works from two more processes sharing it, and no secret is printed")
    func clientCredentials() async throws {
        let cli = try CLIProcess()
        defer { cli.remove() }
        let secretFile = cli.folder.appendingPathComponent("client-secret")
        try Data((OAuthTestServer.serviceClientSecret + "\n").utf8).write(to: secretFile)
        let store = ["--store", "encrypted", "--store-path", cli.path("oauth.enc"), "--key-file", cli.path("oauth.key")]
        try await OAuthTestServer.reset()
        let signedIn = try await cli.run("app-oauth", try Self.signIn(OAuthTestServer.serviceClientID, "--client-credentials")
            + ["--client-secret-file", secretFile.path, "--scope", "read"] + store)
        #expect(signedIn.status == Exit.ok, "\(signedIn)")
        #expect(try await OAuthTestServer.counters().clientCredentialsCalls == 1)

        async let first = cli.run("app-oauth", ["token"] + store)
        async let second = cli.run("app-oauth", ["token"] + store)
        let tokens = try await [first, second]
        var printed: [String] = []
        for token in tokens {
            #expect(token.status == Exit.ok, "\(token)")
            let accessToken = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let owner: TokenOwner = try await OAuthTestServer.server().send(ClientEndpoint(), accessToken: AccessToken(accessToken))
            #expect(owner == TokenOwner(clientID: OAuthTestServer.serviceClientID, scope: "read", username: nil))
            printed.append(accessToken)
        }
        // Renewed at most once between them (if the first token reached half its 5-second life meanwhile).
        #expect(try await OAuthTestServer.counters().clientCredentialsCalls <= 2)

        let whoami = try await cli.run("app-oauth", ["whoami"] + store)
        #expect(whoami.status == Exit.ok, "\(whoami)")
        #expect(whoami.output.contains(OAuthTestServer.serviceClientID), "\(whoami)")
        let signOut = try await cli.run("app-oauth", ["sign-out"] + store)
        #expect(signOut.status == Exit.ok, "\(signOut)")

        for outcome in [signedIn, whoami, signOut] + tokens {
            #expect(!outcome.output.contains(OAuthTestServer.serviceClientSecret) && !outcome.errorOutput.contains(OAuthTestServer.serviceClientSecret),
                    "the client secret was printed")
        }
        for outcome in [signedIn, whoami, signOut] {
            for token in printed {
                #expect(!outcome.output.contains(token) && !outcome.errorOutput.contains(token), "a token was printed")
            }
        }
    }
}
