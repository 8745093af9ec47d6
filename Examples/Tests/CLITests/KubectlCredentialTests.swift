import AppSDKHarness
import AppSDKTesting
import Foundation
import NetworkService
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLITests {
    /// Issue 38, item 4: `app-oauth kubectl-credential`, a kubectl exec credential plugin
    /// (`ExecCredential`, `client.authentication.k8s.io/v1`), and the real kubectl against a
    /// loopback fake API endpoint that checks the token. The storm is in ``CredentialHelperTests``.
    @Suite("app-oauth kubectl-credential")
    struct KubectlCredentialTests {
        typealias Setup = CredentialHelperTests.Setup

        @Test("the answer is an ExecCredential of the version kubectl asks for, with the token and its RFC 3339 expiry",
              arguments: [nil, "client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"])
        func answer(version: String?) async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let info = version.map { #"{"kind":"ExecCredential","apiVersion":"\#($0)","spec":{"interactive":false}}"# }
            let outcome = try await setup.cli.run("app-oauth", ["kubectl-credential"] + setup.store,
                                                  environment: info.map { ["KUBERNETES_EXEC_INFO": $0] } ?? [:])
            #expect(outcome.status == Exit.ok, "\(outcome)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any], "\(outcome)")
            #expect(object["kind"] as? String == "ExecCredential")
            #expect(object["apiVersion"] as? String == version ?? "client.authentication.k8s.io/v1")
            let status = try #require(object["status"] as? [String: String], "\(outcome)")
            #expect(status["token"] == "A-access-1")
            let expiry = try #require(status["expirationTimestamp"].flatMap { ISO8601DateFormatter().date(from: $0) }, "\(outcome)")
            #expect(abs(expiry.timeIntervalSinceNow - 3600) < 120, "\(outcome)")
        }

        @Test("KUBERNETES_EXEC_INFO that is not an ExecCredential, or names a version it does not answer in, is a usage error (64) printing no token",
              arguments: ["{", #"{"kind":"Pod","apiVersion":"v1"}"#, #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1alpha1"}"#,
                          String(repeating: " ", count: 70_000) + "{}"])
        func badExecInfo(info: String) async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let outcome = try await setup.cli.run("app-oauth", ["kubectl-credential"] + setup.store, environment: ["KUBERNETES_EXEC_INFO": info])
            #expect(outcome.status == Exit.usage, "\(outcome)")
            #expect(outcome.output.isEmpty && !outcome.errorOutput.contains("A-access"), "\(outcome)")
        }

        @Test("the real kubectl reads a resource from a loopback API endpoint (https: kubectl sends a plugin's token over TLS only) with the plugin's token")
        func realKubectl() async throws {
            let setup = try await Setup()
            defer { setup.end() }
            let api = try await LoopbackKubernetesAPI(folder: setup.cli.folder, token: "A-access-1", cli: setup.cli)
            defer { api.stop() }
            let program = try ChildProcess.locate("app-oauth", folderVariable: "APP_CLI_BIN_DIR")
            let arguments = (["kubectl-credential"] + setup.store).map { "\"\($0)\"" }.joined(separator: ", ")
            let kubeconfig = setup.cli.folder.appendingPathComponent("kubeconfig")
            // ExecCredential v1 from kubectl 1.22; Debian 12's kubernetes-client (1.20) speaks v1beta1 only.
            let version = try CLITests.CredentialHelperTests.runTool("kubectl", ["version", "--client", "-o", "json"], cli: setup.cli)
            let minor = ((try? JSONSerialization.jsonObject(with: Data(version.output.utf8)) as? [String: Any])?["clientVersion"]
                as? [String: Any])?["minor"] as? String
            let v1 = Int(minor?.prefix { $0.isNumber } ?? "").map { $0 >= 22 } ?? true
            let config = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: fake
                  cluster:
                    server: https://127.0.0.1:\(api.port)
                    certificate-authority: "\(api.certificate.path)"
                contexts:
                - name: fake
                  context:
                    cluster: fake
                    user: oauth
                current-context: fake
                users:
                - name: oauth
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/\(v1 ? "v1" : "v1beta1")
                      command: "\(program.path)"
                      args: [\(arguments)]
                """ + (v1 ? "\n      interactiveMode: Never\n" : "\n")
            try Data(config.utf8).write(to: kubeconfig)
            let outcome = try CredentialHelperTests.runTool("kubectl", ["--kubeconfig", kubeconfig.path, "get", "--raw",
                                                                        "/api/v1/namespaces/default/configmaps/probe"], cli: setup.cli)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.contains(#""seen":"yes""#), "\(outcome)")
            #expect(try api.authorizations().contains("Bearer A-access-1"))
            #expect(!outcome.errorOutput.contains("A-access"), "\(outcome)")
        }

        /// `status.token` of an `ExecCredential` printed as JSON.
        static func token(in output: String) -> String? {
            let object = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]
            return (object?["status"] as? [String: Any])?["token"] as? String
        }
    }
}

/// A Kubernetes API endpoint on https://127.0.0.1 (Python's http.server with a self-signed
/// certificate made by openssl): it answers one ConfigMap to `Authorization: Bearer TOKEN` and
/// 401 to anything else, and writes each request's `Authorization` to a file.
final class LoopbackKubernetesAPI: Sendable {
    let port: Int
    /// The certificate kubectl is told to trust.
    let certificate: URL
    private let log: URL
    private let process: Process

    init(folder: URL, token: String, cli: CLIProcess) async throws {
        certificate = folder.appendingPathComponent("api-cert.pem")
        let key = folder.appendingPathComponent("api-key.pem")
        log = folder.appendingPathComponent("api-authorizations.log")
        let made = try CLITests.CredentialHelperTests.runTool("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], cli: cli)
        guard made.status == 0 else { throw TestSetupError("openssl could not make a certificate: \(made.errorOutput)") }
        let script = folder.appendingPathComponent("kubernetes-api.py")
        try Data(#"""
            import http.server, ssl, sys
            token, cert, key, log, portfile = sys.argv[1:6]
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    with open(log, "a") as f:
                        f.write(repr(self.headers.get("Authorization")).strip("'") + "\n")
                    ok = self.headers.get("Authorization") == "Bearer " + token and self.path.startswith("/api/v1/namespaces/default/configmaps/probe")
                    body = b'{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"probe"},"data":{"seen":"yes"}}' if ok else b'{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}'
                    self.send_response(200 if ok else 401)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
            server.socket = context.wrap_socket(server.socket, server_side=True)
            with open(portfile + ".tmp", "w") as f:
                f.write(str(server.server_address[1]))
            import os
            os.rename(portfile + ".tmp", portfile)
            server.serve_forever()
            """#.utf8).write(to: script)
        let portFile = folder.appendingPathComponent("api-port")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, token, certificate.path, key.path, log.path, portFile.path]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // It writes the port it listens on to a file once it listens.
        var port: Int?
        for _ in 0..<200 where port == nil {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw TestSetupError("the loopback Kubernetes API did not start within 10 s (python3 with ssl needed)")
        }
        self.port = port
    }

    /// The `Authorization` field of each request so far (`None` for none).
    func authorizations() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Ends it with SIGKILL: the test process's children may inherit a mask that blocks SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
