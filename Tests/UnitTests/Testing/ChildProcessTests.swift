import AppSDKHarness
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Commands run to completion by the test tools")
struct ChildProcessTests {
    @Test("a command gets none of the caller's other descriptors, so a daemon it starts holds none of them")
    func commandInheritsNoDescriptor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A descriptor of the caller's that a plain fork and exec would pass on (no O_CLOEXEC).
        let held = open("/dev/null", O_RDONLY)
        try #require(held > 2)
        defer { close(held) }
        let output = folder.appendingPathComponent("out.txt")
        let status = try ChildProcess.runToCompletion(
            ["/bin/sh", "-c", "if [ -e /dev/fd/\(held) ]; then echo inherited; else echo closed; fi; echo written >&2"],
            outputPath: output.path)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(status == 0)
        #expect(text.contains("closed"), "the command could read descriptor \(held): \(text)")
        #expect(text.contains("written"), "standard error goes to the output file too")
    }
}
