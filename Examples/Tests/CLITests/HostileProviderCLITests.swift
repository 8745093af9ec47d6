import HostileServerKit
import Foundation
import Testing

extension CLITests {
    /// `app-oauth` as a process against the hostile-server kit's provider on loopback (the
    /// hostile-server kit's, issue 33), over both transports, one case per item of the issue
    /// that a server (or its absence) controls. The invariants of each case:
    /// no run crashes (a documented exit code) or outlives its bound, nothing printed holds a
    /// control character from the server or a secret in any encoding it was sent in (but
    /// `token`'s own stdout, whose job is the access token), and the hostile answer ends as
    /// the case says (a failed command, say).
    @Suite("app-oauth against a hostile OAuth provider")
    struct HostileProviderCLITests {
        static let transports = ["urlsession", "async-http-client"]

        /// A program run, with what it should not do.
        struct Run {
            let outcome: CLIProcess.Outcome
            /// Whether stdout may hold the access token (`token`'s job).
            var stdoutIsTheToken = false
        }

        /// A provider, a folder, and the arguments every run shares.
        struct Setup {
            let provider: HostileProvider
            let cli: CLIProcess
            let transport: String

            init(_ transport: String, script: HostileScript) throws {
                provider = try HostileProvider(script: script)
                cli = try CLIProcess()
                self.transport = transport
                try Data((HostileSecrets.clientSecret + "\n").utf8).write(to: cli.folder.appendingPathComponent("secret"))
            }

            var store: [String] { cli.fileStore("hostile.json") + ["--transport", transport, "--timeout", "5"] }

            func signIn(_ flow: String = "--client-credentials") -> [String] {
                var arguments = ["sign-in", "--issuer", provider.issuer.absoluteString, "--client-id", HostileSecrets.clientID, flow]
                if flow == "--client-credentials" { arguments += ["--client-secret-file", cli.path("secret")] }
                return arguments + store
            }

            func run(_ arguments: [String]) async throws -> CLIProcess.Outcome {
                try await cli.run("app-oauth", arguments, timeout: 30)
            }

            func remove() {
                provider.stop()
                cli.remove()
            }

            /// Checks every run against the invariants and the case's own expectations (what
            /// the hostile answer should have led to), records an issue for each broken one, and
            /// prints the case's line, which `scripts/test` adds up:
            /// `hostile-server kit (app-oauth): 5 invariants, CASE [TRANSPORT]: N violations`.
            /// No crash, within the bound, no control character, no secret, the case's own.
            static let invariants = 5

            func check(_ what: String, _ runs: [Run], expecting own: [(holds: Bool, message: String)] = []) {
                let secrets = HostileSecrets.collect(from: provider.requests.map(\.request) + provider.trapRequests)
                var broken: [String] = own.filter { !$0.holds }.map(\.message)
                for run in runs {
                    let outcome = run.outcome
                    if ![0, 1, 64, 65, 66, 67, 68, 69].contains(outcome.status) {
                        broken.append("exit \(outcome.status) is no documented exit code (a crash?): \(masked(outcome, secrets))")
                    }
                    if outcome.timedOut { broken.append("still running after 30 s") }
                    for (stream, text) in [("stdout", outcome.output), ("stderr", outcome.errorOutput)] {
                        if !HostileText.controlCharacters(in: text, multiline: true).isEmpty {
                            broken.append("\(stream) holds control characters from the server: \(HostileText.visible(text))")
                        }
                        if stream == "stdout", run.stdoutIsTheToken, outcome.status == 0 { continue }
                        for secret in secrets {
                            if let leak = HostileSecrets.leak(of: secret, in: text) {
                                broken.append("\(stream) holds a secret (\(leak)): \(masked(outcome, secrets))")
                            }
                        }
                    }
                }
                // Written before the issues, in one unbuffered write, so that the test runner's own
                // output cannot split the line.
                let line = "\nhostile-server kit (app-oauth): \(Self.invariants) invariants, \(what) [\(transport)]: "
                    + "\(broken.count) violation\(broken.count == 1 ? "" : "s")\n"
                FileHandle.standardOutput.write(Data(line.utf8))
                for message in broken {
                    Issue.record(Comment(rawValue: "\(what) [\(transport)]: \(message)"))
                }
            }

            private func masked(_ outcome: CLIProcess.Outcome, _ secrets: [String]) -> String {
                secrets.reduce(HostileText.visible(outcome.description)) { text, secret in
                    HostileSecrets.encodings(of: secret).reduce(text) { $0.replacingOccurrences(of: $1.text, with: "<SECRET>") }
                }
            }
        }

        @Test("sign-in and token, the token endpoint answering a form-encoded 200: refused, no byte of it printed",
              arguments: transports)
        func formEncodedTokenAnswer(transport: String) async throws {
            let answers = Counter()
            let setup = try Setup(transport, script: HostileScript { script in
                script.token = { context in
                    // The first answer is good for a second, so `token` must refresh after it.
                    guard answers.next() > 1 else {
                        return HostileAnswers.ok(HostileAnswers.json(["access_token": HostileSecrets.accessToken,
                                                                      "token_type": "Bearer", "expires_in": 1]))
                    }
                    return HostileAnswers.ok("access_token=" + FormCoding.encode(HostileSecrets.accessToken)
                        + "&token_type=Bearer&expires_in=3600", contentType: "application/x-www-form-urlencoded")
                }
            })
            defer { setup.remove() }
            let signIn = try await setup.run(setup.signIn())
            try await Task.sleep(for: .seconds(2))
            let token = try await setup.run(["token"] + setup.store)
            setup.check("a form-encoded 200 at refresh", [Run(outcome: signIn), Run(outcome: token, stdoutIsTheToken: true)],
                        expecting: [(signIn.status == Exit.ok, "the first sign-in failed: \(signIn)"),
                                    (token.status != Exit.ok, "token took a form-encoded answer")])
        }

        @Test("sign-in, the token endpoint's error writing the clipboard and echoing the client secret form-encoded: neither printed",
              arguments: transports)
        func hostileError(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript { script in
                script.clientAuthentication = "client_secret_post"
                script.token = { context in
                    HostileAnswers.oauthError(400, "invalid_client", "bad secret \(context.receivedClientSecretOnTheWire ?? "")"
                        + "\u{1B}]52;c;cHduZWQ=\u{07}")
                }
            })
            defer { setup.remove() }
            let signIn = try await setup.run(setup.signIn())
            setup.check("an error echoing the secret with an escape sequence", [Run(outcome: signIn)],
                        expecting: [(signIn.status != Exit.ok, "sign-in succeeded")])
        }

        @Test("sign-in answered with token_type mac, then with an access token holding a line feed: refused, token prints neither",
              arguments: transports)
        func unusableTokens(transport: String) async throws {
            let cases: [(String, [String: any Sendable])] = [
                ("token_type mac", ["access_token": HostileSecrets.accessToken, "token_type": "mac", "expires_in": 3600]),
                ("an access token with a line feed", ["access_token": "AT.lf\nX-Injected: 1", "token_type": "Bearer", "expires_in": 3600]),
            ]
            for (what, fields) in cases {
                let setup = try Setup(transport, script: HostileScript { script in
                    script.token = { _ in HostileAnswers.ok(HostileAnswers.json(fields)) }
                })
                defer { setup.remove() }
                let signIn = try await setup.run(setup.signIn())
                let token = try await setup.run(["token"] + setup.store)
                setup.check(what, [Run(outcome: signIn), Run(outcome: token, stdoutIsTheToken: true)],
                            expecting: [(signIn.status != Exit.ok, "sign-in took it"),
                                        (token.status != Exit.ok || !token.output.trimmingCharacters(in: .newlines).contains("\n"),
                                         "token printed a token with a line break"),
                                        (!token.output.contains("X-Injected"), "token printed the injected header")])
            }
        }

        @Test("status with a stored expiry 1e19 s away (a JWT's exp, no expires_in): no crash", arguments: transports)
        func absurdExpiry(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript { script in
                script.token = { _ in
                    HostileAnswers.ok(HostileAnswers.json(["access_token": Self.unsignedJWT(exp: "1e19"), "token_type": "Bearer"]))
                }
            })
            defer { setup.remove() }
            let signIn = try await setup.run(setup.signIn())
            let status = try await setup.run(["status"] + setup.store)
            setup.check("an expiry 1e19 s away", [Run(outcome: signIn), Run(outcome: status)])
        }

        @Test("sign-in --device, the user code writing the clipboard and the verification URI javascript:: neither printed, refused",
              arguments: transports)
        func hostileDeviceAuthorization(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript { script in
                script.deviceAuthorization = { _ in
                    var fields = HostileAnswers.deviceFields()
                    fields["user_code"] = "WDJB\u{1B}]52;c;cHduZWQ=\u{07}MJHT"
                    fields["verification_uri"] = "javascript:alert(1)"
                    return HostileAnswers.ok(HostileAnswers.json(fields))
                }
            })
            defer { setup.remove() }
            let signIn = try await setup.run(setup.signIn("--device"))
            setup.check("a hostile device authorization", [Run(outcome: signIn)],
                        expecting: [(signIn.status != Exit.ok, "sign-in succeeded"),
                                    (!signIn.errorOutput.contains("javascript:"), "the javascript: URI was printed")])
        }

        @Test("whoami when userinfo names another subject than the session's (OpenID Connect Core §5.3.4): refused",
              arguments: transports)
        func userinfoForAnotherSubject(transport: String) async throws {
            let calls = Counter()
            let setup = try Setup(transport, script: HostileScript { script in
                // Sign-in learns the account from the first answer; whoami gets the second.
                script.userinfo = { _ in
                    calls.next() == 1 ? .json(200, #"{"sub":"alice","name":"Alice"}"#)
                        : .json(200, #"{"sub":"mallory","name":"Mallory"}"#)
                }
            })
            defer { setup.remove() }
            let signIn = try await setup.run(setup.signIn("--device"))
            let whoami = try await setup.run(["whoami"] + setup.store)
            setup.check("userinfo for another subject", [Run(outcome: signIn), Run(outcome: whoami)],
                        expecting: [(signIn.status == Exit.ok, "the device sign-in failed: \(signIn)"),
                                    (whoami.status != Exit.ok && !whoami.output.contains("Mallory"),
                                     "whoami showed another subject: \(whoami.output)")])
        }

        @Test("sign-in with an issuer on port 99999, and with discovery naming a token endpoint there: refused, no crash",
              arguments: transports)
        func portOutOfRange(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript { script in
                script.discovery = { context in
                    var document = HostileAnswers.discoveryDocument(context)
                    document["token_endpoint"] = "http://127.0.0.1:99999\(context.issuerPath)/token"
                    return HostileAnswers.ok(HostileAnswers.json(document))
                }
            })
            defer { setup.remove() }
            let issuer = try await setup.run(["sign-in", "--issuer", "http://127.0.0.1:99999/i", "--client-id", "kit-client", "--device"]
                + setup.store)
            let endpoint = try await setup.run(setup.signIn())
            setup.check("a port above 65535", [Run(outcome: issuer), Run(outcome: endpoint)],
                        expecting: [(issuer.status != Exit.ok, "sign-in with the issuer on port 99999 succeeded"),
                                    (endpoint.status != Exit.ok, "sign-in with the token endpoint on port 99999 succeeded")])
        }

        @Test("sign-out with the provider down, then with its discovery naming another issuer: signed out locally (0), token then not signed in",
              arguments: transports)
        func signOutWithoutTheProvider(transport: String) async throws {
            for what in ["the provider down", "discovery naming another issuer"] {
                let answers = Counter()
                let setup = try Setup(transport, script: HostileScript { script in
                    script.discovery = { context in
                        var document = HostileAnswers.discoveryDocument(context)
                        if answers.next() > 1 { document["issuer"] = "http://127.0.0.1:1/other" }
                        return HostileAnswers.ok(HostileAnswers.json(document))
                    }
                })
                defer { setup.remove() }
                let signIn = try await setup.run(setup.signIn())
                if what == "the provider down" { setup.provider.stop() }
                let signOut = try await setup.run(["sign-out"] + setup.store)
                let token = try await setup.run(["token"] + setup.store)
                setup.check("sign-out with \(what)", [Run(outcome: signIn), Run(outcome: signOut), Run(outcome: token, stdoutIsTheToken: true)],
                            expecting: [(signIn.status == Exit.ok, "the sign-in failed: \(signIn)"),
                                        (signOut.status == Exit.ok, "sign-out exited \(signOut.status): signing out locally always works"),
                                        (token.status == Exit.notSignedIn, "token after sign-out exited \(token.status), not 65")])
            }
        }

        @Test("a client-secret file ending in CRLF: the secret goes without the CR", arguments: transports)
        func clientSecretFileWithCRLF(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript())
            defer { setup.remove() }
            try Data((HostileSecrets.clientSecret + "\r\n").utf8).write(to: setup.cli.folder.appendingPathComponent("secret"))
            let signIn = try await setup.run(setup.signIn())
            let sent = setup.provider.requests.filter { $0.route == .token }.compactMap { exchange in
                exchange.request.header("Authorization").flatMap { Data(base64Encoded: String($0.dropFirst(6))) }
                    .map { String(decoding: $0, as: UTF8.self) }
            }
            setup.check("a client-secret file ending in CRLF", [Run(outcome: signIn)],
                        expecting: [(signIn.status == Exit.ok, "the sign-in failed: \(signIn.status)"),
                                    (!sent.isEmpty && sent.allSatisfy { !$0.contains("%0D") && !$0.contains("\r") },
                                     "the client secret went with its carriage return")])
        }

        @Test("an issuer written HTTP://: signed in, or refused as a usage error before anything is sent", arguments: transports)
        func upperCaseScheme(transport: String) async throws {
            let setup = try Setup(transport, script: HostileScript())
            defer { setup.remove() }
            let issuer = setup.provider.issuer.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")
            let signIn = try await setup.run(["sign-in", "--issuer", issuer, "--client-id", HostileSecrets.clientID,
                                              "--client-credentials", "--client-secret-file", setup.cli.path("secret")] + setup.store)
            setup.check("an issuer written HTTP://", [Run(outcome: signIn)],
                        expecting: [(signIn.status == Exit.ok || (signIn.status == Exit.usage && setup.provider.requests.isEmpty),
                                     "exit \(signIn.status) after \(setup.provider.requests.count) request(s): \(signIn.errorOutput)")])
        }

        /// An unsigned JWT (`alg` `none`) for `alice` whose `exp` is `exp`, as written.
        static func unsignedJWT(exp: String) -> String {
            func segment(_ text: String) -> String {
                Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            return segment(#"{"alg":"none","typ":"JWT"}"#) + "." + segment(#"{"sub":"alice","exp":\#(exp)}"#) + ".c2ln"
        }
    }
}

/// Counts calls from the provider's connection threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The call's number, from 1.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// `application/x-www-form-urlencoded` for a value.
private enum FormCoding {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")) ?? text
    }
}
