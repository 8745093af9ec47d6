@testable import app_oauth
import CLISupport
import Foundation
import Testing

/// Issue 33, item 14: the client secret is the file's first line, whatever its line ending.
@Suite("The client secret file")
struct ClientSecretFileTests {
    private func read(_ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try OAuthProfile.readSecret(url.path)
    }

    @Test("LF, CRLF, CR, none, surrounding blanks: the same secret", arguments: ["s3cret\n", "s3cret\r\n", "s3cret\r", "s3cret", "  s3cret \t\r\nsecond line\r\n"])
    func lineEndings(_ contents: String) throws {
        #expect(try read(contents) == "s3cret")
    }

    @Test("an empty first line, or a control character in it: a usage error that does not quote the secret")
    func refused() throws {
        for contents in ["\r\ns3cret", "s3\u{1B}cret\n", "s3\u{0}cret"] {
            do {
                _ = try read(contents)
                Issue.record("\(contents.debugDescription) was read")
            } catch {
                let error = try #require(error as? CLIError)
                #expect(error.status == .usage)
                #expect(!error.description.contains("s3"))
            }
        }
    }
}
