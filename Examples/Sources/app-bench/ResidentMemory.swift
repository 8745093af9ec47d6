import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory, from `/proc/self/status` (Linux; `nil` elsewhere).
enum ResidentMemory {
    /// Resets the peak (`VmHWM`) to the current resident size (writing 5 to
    /// `/proc/self/clear_refs`, Linux 4.0 and later) and returns the current size in bytes;
    /// `nil` where the peak cannot be reset, so that a peak from before is never reported as
    /// this one's.
    static func resetPeak() -> Int? {
        #if canImport(Glibc)
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard write(descriptor, "5", 1) == 1 else { return nil }
        return field("VmRSS")
        #else
        return nil
        #endif
    }

    /// The peak resident size since the last ``resetPeak()`` (or the start), in bytes.
    static func peak() -> Int? { field("VmHWM") }

    /// A `kB` field of `/proc/self/status`, in bytes.
    static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
