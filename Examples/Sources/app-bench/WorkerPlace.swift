import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a worker ran, as it sees it: its network namespace, its addresses, its process
/// group and its working folder. The fleet checks with it that its simulated hosts are apart.
struct WorkerPlace: Codable, Sendable, Hashable {
    /// The network namespace (`/proc/self/ns/net`, such as `net:[4026532178]`); empty where
    /// the system has none.
    var network = ""
    /// IPv4 addresses of the worker's interfaces other than loopback.
    var addresses: [String] = []
    var processGroup: Int32 = 0
    var folder = ""

    /// Where the calling process runs.
    static func current() -> WorkerPlace {
        WorkerPlace(network: networkNamespace(), addresses: ipv4Addresses(), processGroup: getpgrp(),
                    folder: FileManager.default.currentDirectoryPath)
    }

    static func networkNamespace() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")) ?? ""
    }

    static func ipv4Addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
            guard converted else { continue }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !string.hasPrefix("127.") { addresses.append(string) }
        }
        return addresses.sorted()
    }
}
