import CLISupport
import Foundation

/// Opens a URL in the user's browser: the `BROWSER` variable's command when it is set (as
/// `xdg-open` and many tools read it), else `open` on macOS, `xdg-open` elsewhere. A machine
/// without any (a server over SSH) is fine: the URL was printed, the user opens it.
enum BrowserOpener {
    /// A program to run and its arguments.
    struct Command: Equatable {
        let executable: String
        let arguments: [String]
    }

    static func open(_ url: URL) {
        let environment = ProcessInfo.processInfo.environment
        let candidates = commands(for: url, browser: environment["BROWSER"], path: environment["PATH"])
        guard !candidates.isEmpty else {
            Output.writeError("(no browser opener found: open the URL yourself)")
            return
        }
        for command in candidates {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command.executable)
            process.arguments = command.arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                return
            } catch {
                Output.writeError("(could not run \(command.executable): open the URL yourself)")
            }
        }
    }

    /// The commands to try, in order: each entry of `browser` (colon-separated, as `BROWSER`
    /// is), its words split on spaces, `%s` replaced by the URL or the URL added as the last
    /// argument, the program found on `path`; then the system's opener. No shell runs it: the
    /// URL (which names the server's authorization endpoint) is one argument, whatever it holds.
    static func commands(for url: URL, browser: String?, path: String?) -> [Command] {
        var commands: [Command] = []
        for entry in (browser ?? "").split(separator: ":") {
            var words = entry.split(separator: " ").map(String.init)
            guard !words.isEmpty, let executable = locate(words.removeFirst(), path: path) else { continue }
            let arguments = words.contains { $0.contains("%s") }
                ? words.map { $0.replacingOccurrences(of: "%s", with: url.absoluteString) }
                : words + [url.absoluteString]
            commands.append(Command(executable: executable, arguments: arguments))
        }
        #if os(macOS)
        let system = ["/usr/bin/open"]
        #else
        let system = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/bin/xdg-open"]
        #endif
        if let opener = system.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            commands.append(Command(executable: opener, arguments: [url.absoluteString]))
        }
        return commands
    }

    /// `name` as an executable path: itself when it names a path, else the first match on `path`.
    private static func locate(_ name: String, path: String?) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        return (path ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
