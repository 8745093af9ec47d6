@testable import app_oauth
import Foundation
import Testing

/// Issue 34, item 9: `BROWSER` is read, without a shell.
@Suite("The browser opener")
struct BrowserOpenerTests {
    let url = URL(string: "https://id.example.com/authorize?a=1&b=$(reboot)")!

    @Test("each BROWSER entry in order, %s replaced or the URL appended, the program found on PATH; unknown programs skipped")
    func commands() {
        let commands = BrowserOpener.commands(for: url, browser: "no-such-browser:sh -c %s:/bin/echo", path: "/usr/bin:/bin")
        #expect(commands.count >= 2)
        #expect(commands[0].arguments == ["-c", url.absoluteString])
        #expect(commands[0].executable.hasSuffix("/sh"))
        #expect(commands[1] == .init(executable: "/bin/echo", arguments: [url.absoluteString]))
    }

    @Test("without BROWSER, only the system's opener (if there is one)")
    func noVariable() {
        #expect(BrowserOpener.commands(for: url, browser: nil, path: nil).allSatisfy { $0.arguments == [url.absoluteString] })
    }
}
