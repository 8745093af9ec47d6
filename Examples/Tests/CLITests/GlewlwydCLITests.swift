import AppSDKHarness
import Foundation
import Testing

/// `app-oauth` as a process against glewlwyd (Debian's OpenID provider, which `scripts/test`
/// starts for this phase): 3-second access tokens whose `exp` is a whole-second `iat` plus 3,
/// one-use refresh tokens with reuse detection. Issue 34: 4 processes × 30 s of `token` on one
/// store print no token past the server's `exp`, and never present a refresh token twice.
@Suite("app-oauth against glewlwyd", .serialized, .glewlwyd)
struct GlewlwydCLITests {
    static let scopes = ["openid", "conformance"]

    /// The `exp` of a JWT access token.
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exp = claims["exp"] as? Double else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    @Test("sign-in --device, then 4 processes × 30 s of token on one encrypted store: every call succeeds, no token printed past its exp, the session never ends")
    func tokenFromFourProcesses() async throws {
        let cli = try CLIProcess()
        defer { cli.remove() }
        // The default key file beside the store: nothing typed, no terminal.
        let store = ["--store", "encrypted", "--store-path", cli.path("glewlwyd.enc")]
        let issuer = try GlewlwydTestServer.issuerURL().absoluteString
        let stderrFile = cli.folder.appendingPathComponent("sign-in.err")
        let signIn = Task {
            try await cli.run("app-oauth", ["sign-in", "--issuer", issuer, "--client-id", GlewlwydTestServer.deviceClientID, "--device",
                                            "--scope", "openid", "--scope", "conformance"] + store, timeout: 120, errorFile: stderrFile)
        }
        let code: String
        do {
            code = try await OAuthCLITests.userCode(in: stderrFile)
        } catch {
            signIn.cancel()
            throw error
        }
        try await GlewlwydTestUser.conformance().approve(verificationURI: try #require(URL(string: issuer + "/device")), userCode: code,
                                                         clientID: GlewlwydTestServer.deviceClientID, scopes: Self.scopes)
        let signedIn = try await signIn.value
        #expect(signedIn.status == Exit.ok, "\(signedIn)")

        // printedBy: when the token was written to stdout (the file's mtime), not when the test
        // saw the process end, which on a loaded machine can be a second or more later.
        struct Call: Sendable { let status: Int32; let token: String; let printedBy: Date; let detail: String }
        let end = Date().addingTimeInterval(30)
        let calls = try await withThrowingTaskGroup(of: [Call].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var calls: [Call] = []
                    while Date() < end {
                        let outcome = try await cli.run("app-oauth", ["token"] + store, timeout: 30)
                        calls.append(Call(status: outcome.status, token: outcome.output.trimmingCharacters(in: .whitespacesAndNewlines),
                                          printedBy: outcome.outputWrittenAt ?? Date(), detail: outcome.status == Exit.ok ? "" : outcome.errorOutput))
                    }
                    return calls
                }
            }
            return try await group.reduce(into: [Call]()) { $0 += $1 }
        }
        let failed = calls.filter { $0.status != Exit.ok }
        let expired = calls.filter { call in Self.expiry(of: call.token).map { call.printedBy > $0 } ?? true }
        let distinct = Set(calls.map(\.token)).count
        print("glewlwyd: app-oauth token from 4 processes for 30 s: \(calls.count) calls, \(failed.count) failed, "
              + "\(expired.count) printed past the token's exp, \(distinct) tokens")
        #expect(calls.count >= 40, "only \(calls.count) calls")
        #expect(failed.isEmpty, "\(failed.count) calls failed, the first: \(failed.first?.detail ?? "")")
        // Says when, never the token itself (test output is logged).
        let late = expired.map { call in
            Self.expiry(of: call.token).map { "printed \(call.printedBy.timeIntervalSince($0)) s after its exp" } ?? "no JWT"
        }
        #expect(expired.count == 0, "\(expired.count) tokens were printed after their exp (or were no JWT): \(late)")
        // 3-second tokens used at most half their life (--min-valid): about 20 in 30 s, a refresh each.
        #expect(distinct >= 10, "\(distinct) tokens in 30 s")
        let status = try await cli.run("app-oauth", ["status", "--json"] + store)
        #expect(status.status == Exit.ok, "the session ended: \(status)")
    }

    /// The claims of a JWT access token.
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test("sign-in --device --dpop at glewlwyd's DPoP instance: status says DPoP-bound, token prints tokens bound to that key (cnf.jkt) across refreshes")
    func dpopDeviceSignIn() async throws {
        // scripts/test starts glewlwyd with its DPoP instances (GLEWLWYD_DPOP=1) for this phase.
        let issuer = try #require(ProcessInfo.processInfo.environment["APP_GLEWLWYD_DPOP_ISSUER"].flatMap { $0.isEmpty ? nil : $0 },
                                  "APP_GLEWLWYD_DPOP_ISSUER is not set: start glewlwyd with GLEWLWYD_DPOP=1 (scripts/lib/glewlwyd.sh)")
        let cli = try CLIProcess()
        defer { cli.remove() }
        let store = ["--store", "encrypted", "--store-path", cli.path("glewlwyd-dpop.enc")]
        let stderrFile = cli.folder.appendingPathComponent("sign-in.err")
        let signIn = Task {
            try await cli.run("app-oauth", ["sign-in", "--issuer", issuer, "--client-id", GlewlwydTestServer.deviceClientID, "--device",
                                            "--scope", "openid", "--scope", "conformance", "--dpop", "eddsa"] + store,
                              timeout: 120, errorFile: stderrFile)
        }
        let code: String
        do {
            code = try await OAuthCLITests.userCode(in: stderrFile)
        } catch {
            signIn.cancel()
            throw error
        }
        try await GlewlwydTestUser.conformance().approve(verificationURI: try #require(URL(string: issuer + "/device")), userCode: code,
                                                         clientID: GlewlwydTestServer.deviceClientID, scopes: Self.scopes)
        let signedIn = try await signIn.value
        #expect(signedIn.status == Exit.ok, "\(signedIn)")

        let status = try await cli.run("app-oauth", ["status", "--json"] + store)
        #expect(status.status == Exit.ok, "\(status)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        let dpop = try #require(object["dpop"] as? [String: Any], "the session is not DPoP-bound: \(status)")
        #expect(dpop["algorithm"] as? String == "EdDSA")
        let thumbprint = try #require(dpop["thumbprint"] as? String)

        // The 3-second tokens are refreshed (proving the key) at least once over these calls.
        var printed: Set<String> = []
        for _ in 0..<3 {
            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.ok, "\(token.errorOutput)")
            let accessToken = token.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let cnf = Self.claims(of: accessToken)?["cnf"] as? [String: Any]
            #expect(cnf?["jkt"] as? String == thumbprint, "a token not bound to the session's key")
            printed.insert(accessToken)
            try await Task.sleep(for: .seconds(2))
        }
        #expect(printed.count >= 2, "no refresh in 6 s of 3-second tokens")
        let human = try await cli.run("app-oauth", ["status"] + store)
        #expect(human.output.contains("DPoP-bound (EdDSA, key \(thumbprint.prefix(8))…)"), "\(human)")
        let signOut = try await cli.run("app-oauth", ["sign-out"] + store)
        #expect(signOut.status == Exit.ok, "\(signOut)")
        for outcome in [signedIn, status, human, signOut] {
            for token in printed {
                #expect(!outcome.output.contains(token) && !outcome.errorOutput.contains(token), "a token was printed")
            }
        }
    }
}
