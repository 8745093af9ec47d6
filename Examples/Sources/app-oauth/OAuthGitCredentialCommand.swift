import ArgumentParser
import CLISupport
import Foundation
import NetworkService
import SessionEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `git-credential get|store|erase`: a git credential helper (`man gitcredentials`) that
/// answers with the session's access token, renewed first when due (once between all the
/// processes sharing the store).
struct OAuthGitCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "A git credential helper: the access token as the password for the hosts named by --host.",
        discussion: """
            Set it up for one host (git adds get, store or erase at the end):
              git config --global credential.https://git.example.com.helper \\
                '!app-oauth git-credential --host git.example.com'
            get answers username, password (the access token) and password_expiry_utc for a request \
            for one of the --host hosts over https (or over http to this machine only); for any other \
            host it answers nothing, so git asks its next helper. store and erase check the request and \
            change nothing: the session is the store's, renewed by the engine, and a token git had \
            refused is renewed by the next get once it is due.
            """
    )

    /// What git asks.
    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case get, store, erase
    }

    @Argument(help: "What git asks: get, store or erase.")
    var operation: Operation

    @Option(name: .customLong("host"), help: ArgumentHelp(
        "A host the token is for, as git names it (host or host:port); repeat for more. Requests for other hosts get no answer.",
        valueName: "host"))
    var hosts: [String] = []

    @Option(help: ArgumentHelp("The user name answered when the request names none.", valueName: "name"))
    var username = "oauth2"

    @Option(name: .customLong("min-valid"), help: ArgumentHelp(
        "Renew first when the token has fewer seconds left than this (or than half its lifetime, when that is shorter).",
        valueName: "seconds"))
    var minValid: Double = 60

    @OptionGroup var global: StoreOptions

    func validate() throws {
        guard !hosts.isEmpty else { throw ValidationError("name the hosts the token is for with --host HOST[:PORT]") }
        for host in hosts {
            guard !host.isEmpty, host.count <= 255,
                  host.unicodeScalars.allSatisfy({ (0x21..<0x7F).contains($0.value) && !"/@?#".unicodeScalars.contains($0) }) else {
                throw ValidationError("--host takes a host name with an optional :port (no scheme, path or user), got \(TerminalText.safe(host))")
            }
        }
        guard !username.isEmpty, !username.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ValidationError("--username must be a non-empty name without control characters")
        }
        guard minValid >= 0, minValid <= 86_400 else { throw ValidationError("--min-valid must be within 0…86400 seconds, got \(minValid)") }
    }

    func run() async throws {
        let request: GitCredentialRequest
        do throws(GitCredentialError) {
            request = try GitCredentialRequest(parsing: Self.readStandardInput())
        } catch {
            throw Runner.fail(CLIError(.usage, error.localizedDescription, hint: error.hint))
        }
        guard operation == .get, try shouldAnswer(request) else { return }
        try await OAuthContext.run(global) { context in
            let helper = try await HelperToken.fetch(context, minimumValidity: minValid)
            var answer = "username=\(request.username ?? username)\npassword=\(helper.token.rawValue)\n"
            if let expiry = helper.expiresAt {
                answer += "password_expiry_utc=\(Int(expiry.timeIntervalSince1970.rounded(.down)))\n"
            }
            FileHandle.standardOutput.write(Data(answer.utf8))
        }
    }

    /// Whether `request` is one this helper answers: for one of ``hosts``, over https or over
    /// http to this machine. Another host or another protocol gets no answer (git asks its next helper).
    /// - Throws: the exit for a request without a protocol or a host, or over http to another machine.
    private func shouldAnswer(_ request: GitCredentialRequest) throws(ExitCode) -> Bool {
        guard let scheme = request.scheme else { throw Runner.fail(Self.cliError(.missingField("protocol"))) }
        guard let host = request.host, !host.isEmpty else { throw Runner.fail(Self.cliError(.missingField("host"))) }
        guard hosts.contains(where: { $0.lowercased() == host.lowercased() }) else { return false }
        switch scheme {
        case "https": return true
        case "http":
            guard GitCredentialRequest.isLoopback(host) else { throw Runner.fail(Self.cliError(.plainHTTP(host: host))) }
            return true
        default: return false
        }
    }

    private static func cliError(_ error: GitCredentialError) -> CLIError {
        CLIError(.usage, error.localizedDescription, hint: error.hint)
    }

    /// Standard input up to its first blank line or its end, and at most a byte past
    /// ``GitCredentialRequest/maximumInputBytes`` (the parser then says it is too long).
    static func readStandardInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while data.count <= GitCredentialRequest.maximumInputBytes {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
            if data.first == UInt8(ascii: "\n") || data.range(of: Data("\n\n".utf8)) != nil
                || data.range(of: Data("\n\r\n".utf8)) != nil { break }
        }
        return data
    }
}
