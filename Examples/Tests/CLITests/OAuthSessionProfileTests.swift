import AppSDKTesting
import Foundation
import NetworkService
import Testing

extension CLITests {
    /// Issue 33, items 12 and 13: the session and its profile are one unit, and sign-out works
    /// here whatever the server does. Against ``FakeProvider``s on loopback: no live server.
    @Suite("app-oauth: the session and its profile, sign-out offline")
    struct OAuthSessionProfileTests {
        /// The JSON of a command's stdout.
        private func json(_ outcome: CLIProcess.Outcome) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8))) as? [String: Any] ?? [:]
        }

        @Test("a slow sign-out racing a sign-in: the new session keeps its profile, so token and status work")
        func slowSignOutRacingSignIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let (a, b) = (try FakeProvider("A"), try FakeProvider("B"))
            defer { a.stop(); b.stop() }
            let store = cli.fileStore("oauth.json")
            let first = try await cli.signInClientCredentials(a, store)
            #expect(first.status == Exit.ok, "\(first)")

            // The sign-out has cleared the store and waits for A's revocation when B's sign-in runs.
            a.configure { $0.revocationDelay = 3 }
            let signOut = Task { try await cli.run("app-oauth", ["sign-out", "--json"] + store) }
            #expect(try await a.waitForRequest("/revoke"))
            let second = try await cli.signInClientCredentials(b, store)
            #expect(second.status == Exit.ok, "\(second)")
            let signedOut = try await signOut.value
            #expect(signedOut.status == Exit.ok, "\(signedOut)")
            #expect(json(signedOut)["wasSignedIn"] as? Bool == true, "\(signedOut)")

            // B's session is whole: its tokens and its profile.
            #expect(try cli.storedAccessToken("oauth.json")?.hasPrefix("B-") == true)
            #expect(try cli.profile(beside: "oauth.json")?["issuer"] as? String == b.issuer)
            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.ok, "\(token)")
            #expect(token.output.hasPrefix("B-access-"), "\(token)")
            let status = try await cli.run("app-oauth", ["status", "--json"] + store)
            #expect(status.status == Exit.ok, "\(status)")
            #expect(json(status)["issuer"] as? String == b.issuer, "\(status)")
        }

        @Test("a sign-out overtaken by a sign-in at another issuer: the new tokens never go to the old issuer, and stay")
        func signOutOvertakenBySignIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let (a, b) = (try FakeProvider("A"), try FakeProvider("B"))
            defer { a.stop(); b.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(a, store).status == Exit.ok)
            try cli.ageKeptDiscoveryDocument(beside: "oauth.json")

            // The sign-out has read A's profile and waits for A's discovery when B's sign-in runs.
            a.configure { $0.discoveryDelay = 3 }
            let signOut = Task { try await cli.run("app-oauth", ["sign-out", "--json"] + store) }
            #expect(try await a.waitForRequest("/.well-known/openid-configuration"))
            let second = try await cli.signInClientCredentials(b, store)
            #expect(second.status == Exit.ok, "\(second)")
            let signedOut = try await signOut.value

            #expect(!a.revokedTokens.contains { $0.hasPrefix("B-") }, "B's token was sent to A: \(a.revokedTokens)")
            #expect(signedOut.status == Exit.ok, "\(signedOut)")
            #expect(json(signedOut)["wasSignedIn"] as? Bool == false, "\(signedOut)")
            #expect(signedOut.errorOutput.contains("another sign-in replaced the session"), "\(signedOut)")
            #expect(try cli.storedAccessToken("oauth.json")?.hasPrefix("B-") == true)
            #expect(try cli.profile(beside: "oauth.json")?["issuer"] as? String == b.issuer)
        }

        @Test("sign-ins killed at random moments over another issuer's session: never tokens without their own profile")
        func killedSignIns() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let providers = [try FakeProvider("A"), try FakeProvider("B")]
            defer { providers.forEach { $0.stop() } }
            let store = cli.fileStore("oauth.json")
            let first = try await cli.signInClientCredentials(providers[0], store)
            #expect(first.status == Exit.ok, "\(first)")
            // Kill moments spread over a whole sign-in's duration on this machine, one per
            // twentieth, at a random point of it.
            var killed = 0
            for round in 1...20 {
                let provider = providers[round % 2]
                let moment = first.seconds * (Double(round) - Double.random(in: 0..<1)) / 20
                let outcome = try await cli.signInClientCredentials(provider, store, timeout: max(moment, 0.001))
                if outcome.timedOut { killed += 1 }
                // Whatever the moment: no tokens, or tokens of the issuer the profile names.
                guard let token = try cli.storedAccessToken("oauth.json") else { continue }
                let issuer = try cli.profile(beside: "oauth.json")?["issuer"] as? String
                let owner = providers.first { token.hasPrefix($0.name + "-") }
                #expect(issuer != nil && issuer == owner?.issuer,
                        "round \(round) (\(outcome.timedOut ? "killed" : "finished")): a token of \(owner?.name ?? "?") beside the profile of \(issuer ?? "nobody")")
            }
            #expect(killed > 0, "no sign-in was killed: the timeouts are too long for this machine")
        }

        @Test("sign-out with tokens but no profile: the session is removed here, wasSignedIn true, the server not told")
        func tokensWithoutProfile() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let a = try FakeProvider("A")
            defer { a.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(a, store).status == Exit.ok)
            // What a version before the profile and the session were one unit could leave.
            try FileManager.default.removeItem(atPath: cli.path("oauth.json.profile.json"))
            let token = try await cli.run("app-oauth", ["token"] + store)
            #expect(token.status == Exit.notSignedIn, "\(token)")
            #expect(token.errorOutput.contains("the store holds a session, but no sign-in profile"), "\(token)")

            let signOut = try await cli.run("app-oauth", ["sign-out", "--json"] + store)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            #expect(json(signOut)["wasSignedIn"] as? Bool == true, "\(signOut)")
            #expect(json(signOut)["serverConfirmed"] as? Bool == false, "\(signOut)")
            #expect(signOut.errorOutput.contains("the server could not be told"), "\(signOut)")
            #expect(try cli.storedAccessToken("oauth.json") == nil)
        }

        @Test("sign-out with the provider down, or its discovery naming another issuer: signed out here, exit 0, the server not told",
              arguments: ["down", "another issuer"])
        func signOutOffline(_ fault: String) async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let a = try FakeProvider("A")
            defer { a.stop() }
            let store = cli.fileStore("oauth.json")
            #expect(try await cli.signInClientCredentials(a, store).status == Exit.ok)
            // The kept document is a day old: the sign-out reads the provider's again, and meets the fault.
            try cli.ageKeptDiscoveryDocument(beside: "oauth.json")
            if fault == "down" { a.stop() } else { a.configure { $0.namedIssuer = "http://127.0.0.1:9/other" } }

            let signOut = try await cli.run("app-oauth", ["sign-out", "--json"] + store)
            #expect(signOut.status == Exit.ok, "\(signOut)")
            #expect(json(signOut)["wasSignedIn"] as? Bool == true, "\(signOut)")
            #expect(json(signOut)["serverConfirmed"] as? Bool == false, "\(signOut)")
            #expect(signOut.errorOutput.contains("signed out here; the server could not be told"), "\(signOut)")
            #expect(try cli.storedAccessToken("oauth.json") == nil)
            #expect(try cli.profile(beside: "oauth.json") == nil)
            #expect(a.revokedTokens.isEmpty)
            let status = try await cli.run("app-oauth", ["status"] + store)
            #expect(status.status == Exit.notSignedIn, "\(status)")
        }
    }
}
