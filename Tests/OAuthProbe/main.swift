// A front end of an OAuth 2.0 server in its own process, for the conformance tests: it
// opens the encrypted store that the test process and other probes share, and calls the
// protected resource through the SDK's OAuth 2.0 preset (the code of docs/OTHER-SERVERS.md, through
// OAuthAdopter) for a while.
//
// usage: OAuthProbe <server-url> <client-id> <store-path> <key-file> <seconds> <pause-ms>
// (the client secret comes from APP_OAUTH_CLIENT_SECRET, never from the command line)
// prints `calls N`, `failed N`, `signedOut N` and the first few errors (which never contain
// a token), and exits 0 when it ran to the end.
import AppSDKTesting
import Foundation
import SessionEngine
import TokenStore

let arguments = CommandLine.arguments
guard arguments.count == 7, let seconds = Double(arguments[5]), let pause = Int(arguments[6]) else {
    FileHandle.standardError.write(Data("usage: OAuthProbe <server-url> <client-id> <store-path> <key-file> <seconds> <pause-ms>\n".utf8))
    exit(64)
}

do {
    let adopter = try await OAuthAdopter(
        baseURL: arguments[1], clientID: arguments[2], clientSecret: ProcessInfo.processInfo.environment["APP_OAUTH_CLIENT_SECRET"] ?? "",
        storeURL: URL(fileURLWithPath: arguments[3]), keyURL: URL(fileURLWithPath: arguments[4]))
    let signedOut = LockedCounter()
    let events = Task {
        for await event in adopter.service.events() {
            if case .signedOut = event { signedOut.increment() }
        }
    }
    var calls = 0
    var errors: [String] = []
    let clock = ContinuousClock()
    let end = clock.now + .seconds(seconds)
    while clock.now < end {
        do {
            _ = try await adopter.me()
        } catch {
            errors.append(String(describing: error))
        }
        calls += 1
        try await Task.sleep(for: .milliseconds(pause))
    }
    try await Task.sleep(for: .milliseconds(50))
    events.cancel()
    print("calls \(calls)")
    print("failed \(errors.count)")
    print("signedOut \(signedOut.value)")
    for error in errors.prefix(3) { print("error \(error)") }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("OAuthProbe: \(error)\n".utf8))
    exit(1)
}

/// A counter the event task bumps.
final class LockedCounter: Sendable {
    private let count = LockedValue(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
