import ArgumentParser
import CLISupport
import Foundation

/// `kubectl-credential`: a kubectl exec credential plugin (client-go's `ExecCredential`) that
/// answers with the session's access token and its expiry, renewed first when due (once
/// between all the processes sharing the store).
struct OAuthKubectlCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kubectl-credential",
        abstract: "A kubectl exec credential plugin: an ExecCredential with the access token and its expiry.",
        discussion: """
            Set it up in a kubeconfig user (add the store options to args when they are not the defaults):
              user:
                exec:
                  apiVersion: client.authentication.k8s.io/v1
                  command: app-oauth
                  args: [kubectl-credential]
                  interactiveMode: Never
            The answer's apiVersion is the one kubectl names in KUBERNETES_EXEC_INFO \
            (client.authentication.k8s.io/v1 or v1beta1; v1 when it names none).
            """
    )

    @Option(name: .customLong("min-valid"), help: ArgumentHelp(
        "Renew first when the token has fewer seconds left than this (or than half its lifetime, when that is shorter).",
        valueName: "seconds"))
    var minValid: Double = 60

    @OptionGroup var global: StoreOptions

    /// The API versions of `ExecCredential` this plugin answers in.
    static let apiVersions = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]

    func validate() throws {
        guard minValid >= 0, minValid <= 86_400 else { throw ValidationError("--min-valid must be within 0…86400 seconds, got \(minValid)") }
    }

    func run() async throws {
        let apiVersion: String
        do {
            apiVersion = try Self.requestedAPIVersion(Environment.string("KUBERNETES_EXEC_INFO"))
        } catch {
            throw Runner.fail(error)
        }
        try await OAuthContext.run(global) { context in
            let helper = try await HelperToken.fetch(context, minimumValidity: minValid)
            var status: [String: String] = ["token": helper.token.rawValue]
            if let expiry = helper.expiresAt {
                let format = ISO8601DateFormatter()
                format.formatOptions = [.withInternetDateTime]
                status["expirationTimestamp"] = format.string(from: expiry)
            }
            let credential: [String: Any] = ["apiVersion": apiVersion, "kind": "ExecCredential", "status": status]
            let data = try JSONSerialization.data(withJSONObject: credential, options: [.sortedKeys])
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }

    /// The `apiVersion` kubectl asks for in `KUBERNETES_EXEC_INFO` (its own `ExecCredential`,
    /// JSON); v1 when the variable is unset or empty.
    /// - Throws: ``ExitStatus/usage`` for a value that is not such JSON, longer than 64 KiB,
    ///   or names a version this plugin does not answer in (never quoting the value).
    static func requestedAPIVersion(_ info: String?) throws(CLIError) -> String {
        guard let info, !info.isEmpty else { return apiVersions[0] }
        guard info.utf8.count <= 65_536,
              let object = (try? JSONSerialization.jsonObject(with: Data(info.utf8))) as? [String: Any],
              object["kind"] as? String == "ExecCredential", let version = object["apiVersion"] as? String else {
            throw CLIError(.usage, "KUBERNETES_EXEC_INFO is not an ExecCredential (JSON with kind and apiVersion, at most 64 KiB)")
        }
        guard apiVersions.contains(version) else {
            throw CLIError(.usage, "kubectl asks for an ExecCredential of \(TerminalText.safe(String(version.prefix(100)))); this plugin answers \(apiVersions.joined(separator: " or "))",
                           hint: "set apiVersion: client.authentication.k8s.io/v1 in the kubeconfig's exec section")
        }
        return version
    }
}
