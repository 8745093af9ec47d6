import CLISupport
import Foundation

/// Opens a URL in the user's browser: `open` on macOS, `xdg-open` elsewhere. A machine
/// without either (a server over SSH) is fine: the URL was printed, the user opens it.
enum BrowserOpener {
    static func open(_ url: URL) {
        #if os(macOS)
        let candidates = ["/usr/bin/open"]
        #else
        let candidates = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/bin/xdg-open"]
        #endif
        guard let program = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Output.writeError("(no browser opener found: open the URL yourself)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Output.writeError("(could not run \(program): open the URL yourself)")
        }
    }
}
