import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import Testing

extension CLITests {
    /// Issue 38, item 4: `app-oauth` as other programs' credential helper. `token --min-valid`,
    /// and `git-credential get|store|erase` (`man gitcredentials`) with its hostile input, the
    /// real `git` against a loopback server that checks the token, and 50 helpers at once with
    /// an expired token making one refresh. Against ``FakeProvider``s on loopback: no live server.
    @Suite("app-oauth credential helpers: token --min-valid, git-credential")
    struct CredentialHelperTests {
        /// The host the helper is set up for in these tests.
        static let host = "git.example.com"

        /// A session signed in at a new provider `A` into a file store, and the helper's arguments for it.
        struct Setup {
            let cli: CLIProcess
            let provider: FakeProvider
            let store: [String]

            init(_ settings: FakeProvider.Settings = FakeProvider.Settings()) async throws {
                cli = try CLIProcess()
                provider = try FakeProvider("A", settings)
                store = cli.fileStore("oauth.json")
                let signIn = try await cli.signInClientCredentials(provider, store)
                try #require(signIn.status == Exit.ok, "\(signIn)")
            }

            func helper(_ operation: String, _ request: String, hosts: [String] = [CredentialHelperTests.host]) async throws -> CLIProcess.Outcome {
                try await cli.run("app-oauth", ["git-credential"] + hosts.flatMap { ["--host", $0] } + store + [operation],
                                  stdin: request, timeout: 120)
            }

            func end() {
                provider.stop()
                cli.remove()
            }
        }

        @Test("token --min-valid with a negative, too large or non-numeric value is a usage error (64) before any request",
              arguments: ["-1", "86401", "soon", "nan"])
        func minValidValidation(value: String) async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let requests = setup.provider.paths.count
            let outcome = try await setup.cli.run("app-oauth", ["token", "--min-valid", value] + setup.store)
            #expect(outcome.status == Exit.usage, "\(outcome)")
            #expect(outcome.output.isEmpty, "\(outcome)")
            #expect(setup.provider.paths.count == requests)
        }

        @Test("app-oauth --help shows how to set git and kubectl up with the helpers")
        func helpShowsSetUp() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let help = try await cli.run("app-oauth", ["--help"])
            #expect(help.status == Exit.ok, "\(help)")
            #expect(help.output.contains("git config --global credential.https://git.example.com.helper"), "\(help)")
            #expect(help.output.contains("'!app-oauth git-credential --host git.example.com'"), "\(help)")
            #expect(help.output.contains("app-oauth kubectl-credential"), "\(help)")
        }

        @Test("get answers username, the access token as password, and password_expiry_utc (the token's expiry, in Unix seconds)")
        func getAnswersTheToken() async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let outcome = try await setup.helper("get", "protocol=https\nhost=\(Self.host)\npath=org/repo.git\n\n")
            #expect(outcome.status == Exit.ok, "\(outcome)")
            let answer = Self.fields(outcome.output)
            #expect(answer["username"] == "oauth2" && answer["password"] == "A-access-1", "\(outcome)")
            let expiry = try #require(answer["password_expiry_utc"].flatMap(Double.init), "\(outcome)")
            #expect(abs(expiry - Date().addingTimeInterval(3600).timeIntervalSince1970) < 120, "\(outcome)")
            #expect(outcome.output.hasSuffix("\n") && !outcome.output.contains("\n\n"), "\(outcome)")
            // A user name the request names is kept; the url= form names the same fields.
            let named = try await setup.helper("get", "url=https://alice@\(Self.host)/org/repo.git\n")
            #expect(Self.fields(named.output)["username"] == "alice" && Self.fields(named.output)["password"] == "A-access-1", "\(named)")
        }

        @Test("a request for another host, another port or another protocol gets no answer (exit 0, nothing on stdout) and no token is read")
        func otherHostsGetNoAnswer() async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let requests = setup.provider.paths.count
            for request in ["protocol=https\nhost=evil.example.com\n\n", "protocol=https\nhost=\(Self.host):8443\n\n",
                            "protocol=cert\nhost=\(Self.host)\n\n", "protocol=https\nhost=\(Self.host).evil.example\n\n",
                            "url=https://evil.example.com/\(Self.host)\n\n"] {
                let outcome = try await setup.helper("get", request)
                #expect(outcome.status == Exit.ok && outcome.output.isEmpty, "\(request.debugDescription): \(outcome)")
                #expect(!outcome.errorOutput.contains("A-access"), "\(outcome)")
            }
            #expect(setup.provider.paths.count == requests)
        }

        @Test("hostile or broken requests are usage errors (64) naming the line, with no token on stdout or stderr",
              arguments: [
                  ("protocol=https\nhost=git.exa\u{1B}[31mmple.com\n\n", "control character"),
                  ("protocol=https\nhost=\(CredentialHelperTests.host)\rpassword=x\n\n", "control character"),
                  ("protocol=https\nhost=\(CredentialHelperTests.host)\u{0}\n\n", "control character"),
                  ("protocol=https\nusername=\u{7F}\nhost=\(CredentialHelperTests.host)\n\n", "control character"),
                  ("protocol=https\nhost \(CredentialHelperTests.host)\n\n", "no '='"),
                  ("protocol=https\n=\(CredentialHelperTests.host)\n\n", "key"),
                  ("protocol=https\npath=" + String(repeating: "a", count: 10_000) + "\nhost=\(CredentialHelperTests.host)\n\n", "longer than 8192 bytes"),
                  (String(repeating: "wwwauth[]=Basic realm=\"x\"\n", count: 3_000) + "protocol=https\nhost=\(CredentialHelperTests.host)\n\n", "longer than 65536 bytes"),
                  ("host=\(CredentialHelperTests.host)\n\n", "no protocol"),
                  ("protocol=https\npath=a\n\n", "no host"),
                  ("", "no protocol"),
                  ("protocol=http\nhost=\(CredentialHelperTests.host)\n\n", "plain http"),
                  ("url=http://\(CredentialHelperTests.host)/repo.git\n\n", "plain http"),
                  ("url=not a url\n\n", "url is not a URL"),
              ])
        func hostileRequests(request: String, expected: String) async throws {
            let setup = try await Setup()
            defer { setup.end() }
            for operation in ["get", "store", "erase"] {
                // store and erase stop at what get does not need; they check every line all the same.
                let needsFields = expected.hasPrefix("no ") || expected == "plain http"
                if needsFields, operation != "get" { continue }
                let outcome = try await setup.helper(operation, request)
                #expect(outcome.status == Exit.usage, "\(operation) \(request.prefix(80).debugDescription): \(outcome)")
                #expect(outcome.output.isEmpty, "\(outcome)")
                #expect(outcome.errorOutput.contains(expected), "\(operation): \(outcome.errorOutput)")
                #expect(!outcome.errorOutput.contains("A-access") && !outcome.errorOutput.contains("\u{1B}"), "\(outcome)")
            }
            #expect(try setup.cli.storedAccessToken("oauth.json") == "A-access-1")
        }

        @Test("store and erase change nothing: the stored session stays, no request is made, nothing is printed")
        func storeAndEraseChangeNothing() async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let requests = setup.provider.paths.count
            for operation in ["store", "erase"] {
                let outcome = try await setup.helper(operation, "protocol=https\nhost=\(Self.host)\nusername=oauth2\npassword=other-token\n\n")
                #expect(outcome.status == Exit.ok && outcome.output.isEmpty, "\(operation): \(outcome)")
            }
            #expect(try setup.cli.storedAccessToken("oauth.json") == "A-access-1")
            #expect(setup.provider.paths.count == requests)
            let get = try await setup.helper("get", "protocol=https\nhost=\(Self.host)\n\n")
            #expect(Self.fields(get.output)["password"] == "A-access-1", "\(get)")
        }

        @Test("the real git lists a repository's refs over http://127.0.0.1 with the helper: the server gets the token as Basic auth")
        func realGit() async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let git = GitRepositoryServer(password: "A-access-1")
            let server = try git.fake.serveOnLoopback()
            defer { server.stop() }
            let host = String(server.baseURL.dropFirst("http://".count))
            let program = try ChildProcess.locate("app-oauth", folderVariable: "APP_CLI_BIN_DIR")
            let helper = "!'\(program.path)' git-credential --host \(host) " + setup.store.map { "'\($0)'" }.joined(separator: " ")
            let outcome = try Self.runGit(["-c", "credential.helper=", "-c", "credential.helper=\(helper)", "ls-remote",
                                           server.baseURL + "/org/repo.git"], cli: setup.cli)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.contains("\(GitRepositoryServer.commit)\trefs/heads/main"), "\(outcome)")
            #expect(git.fake.requests.contains { $0.header("Authorization") == git.expectedAuthorization })
            #expect(!outcome.errorOutput.contains("A-access"), "\(outcome)")
            // Without the helper, git is refused: the server does check the token.
            let refused = try Self.runGit(["-c", "credential.helper=", "ls-remote", server.baseURL + "/org/repo.git"], cli: setup.cli)
            #expect(refused.status != 0, "\(refused)")
        }

        @Test("50 helpers at once with an expired token make one refresh between them, and all answer the new token",
              arguments: ["git-credential", "kubectl-credential"])
        func storm(helper: String) async throws {
            let setup = try await Setup(FakeProvider.Settings(expiresIn: 2))
            defer { setup.end() }
            setup.provider.configure { $0.expiresIn = 3600 }   // the renewed token outlives the storm
            try await Task.sleep(for: .milliseconds(2_500))
            let before = setup.provider.fake.requests(.post, "/token").count
            let outcomes = try await withThrowingTaskGroup(of: CLIProcess.Outcome.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        helper == "git-credential"
                            ? try await setup.helper("get", "protocol=https\nhost=\(Self.host)\n\n")
                            : try await setup.cli.run("app-oauth", ["kubectl-credential"] + setup.store, timeout: 120)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 50)
            for outcome in outcomes {
                let token = helper == "git-credential" ? Self.fields(outcome.output)["password"] : KubectlCredentialTests.token(in: outcome.output)
                #expect(outcome.status == Exit.ok && token == "A-access-2", "\(outcome)")
            }
            #expect(setup.provider.fake.requests(.post, "/token").count - before == 1)
        }

        /// The `key=value` lines of a helper's answer.
        static func fields(_ output: String) -> [String: String] {
            var fields: [String: String] = [:]
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            return fields
        }

        /// Runs the `git` on PATH with `arguments`, no configuration but the test's, never prompting.
        static func runGit(_ arguments: [String], cli: CLIProcess) throws -> (status: Int32, output: String, errorOutput: String) {
            try runTool("git", arguments, cli: cli)
        }

        /// Runs `tool` from PATH (Debian's git or kubectl) with `arguments`, in the test's folder
        /// as HOME and environment, never prompting.
        static func runTool(_ tool: String, _ arguments: [String], cli: CLIProcess) throws -> (status: Int32, output: String, errorOutput: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APP_") && !$0.key.hasPrefix("GIT_") }
            environment.merge(cli.environment) { _, new in new }
            environment["HOME"] = cli.folder.path
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            environment["GIT_TERMINAL_PROMPT"] = "0"
            environment["GIT_ASKPASS"] = "/bin/false"
            environment["SSH_ASKPASS"] = "/bin/false"
            process.environment = environment
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }
    }
}

/// A git repository over smart HTTP (protocol v0, `git ls-remote` only) that asks for Basic
/// authentication and accepts only the user `oauth2` with `password`.
struct GitRepositoryServer {
    /// The commit its one branch points to.
    static let commit = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    let fake = FakeTokenServer(notFound: .status(404))
    let expectedAuthorization: String

    init(password: String) {
        let expected = "Basic " + Data("oauth2:\(password)".utf8).base64EncodedString()
        expectedAuthorization = expected
        fake.route(.get, "/org/repo.git/info/refs") { request in
            guard request.header("Authorization") == expected else {
                return .respond(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"repo\""], body: Data())
            }
            func packet(_ text: String) -> String { String(format: "%04x", text.utf8.count + 4) + text }
            let body = packet("# service=git-upload-pack\n") + "0000"
                + packet("\(Self.commit) HEAD\u{0}symref=HEAD:refs/heads/main\n") + packet("\(Self.commit) refs/heads/main\n") + "0000"
            return .respond(status: 200, headers: ["Content-Type": "application/x-git-upload-pack-advertisement",
                                                   "Cache-Control": "no-cache"], body: Data(body.utf8))
        }
    }
}
