// A front end of an OAuth 2.0 server in its own process, for the conformance tests: it
// opens the encrypted store that the test process and other probes share, and calls the
// protected resource through the SDK's OAuth 2.0 preset (the code of docs/OTHER-SERVERS.md, through
// OAuthAdopter) for a while.
//
// usage: OAuthProbe <server-url> <client-id> <store-path> <key-file> <seconds> <pause-ms>
// (the client secret comes from APP_OAUTH_CLIENT_SECRET, never from the command line)
//    or: OAuthProbe client-credentials <server-url> <issuer> <client-id> <store-path> <key-file> <seconds> <pause-ms>
// (a job with a client-credentials session, the docs' example through
// OIDCAdopter.clientCredentialsSession; the secret from APP_OAUTH_SERVICE_CLIENT_SECRET)
// prints `calls N`, `failed N`, `signedOut N` and the first few errors (which never contain
// a token), and exits 0 when it ran to the end.
import AppSDKHarness
import Foundation
import NetworkService
import OAuthSignIn
import SessionEngine
import TokenStore

let usage = """
    usage: OAuthProbe <server-url> <client-id> <store-path> <key-file> <seconds> <pause-ms>
       or: OAuthProbe client-credentials <server-url> <issuer> <client-id> <store-path> <key-file> <seconds> <pause-ms>

    """
var arguments = Array(CommandLine.arguments.dropFirst())
let clientCredentials = arguments.first == "client-credentials"
if clientCredentials { arguments.removeFirst() }
guard arguments.count == (clientCredentials ? 7 : 6), let seconds = Double(arguments[arguments.count - 2]),
      let pause = Int(arguments[arguments.count - 1]), seconds > 0, seconds <= 3600, pause >= 0, pause <= 60_000 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}

do {
    let environment = ProcessInfo.processInfo.environment
    let service: SessionService
    let call: @Sendable () async throws -> Void
    if clientCredentials {
        guard let issuer = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("OAuthProbe: the issuer is not a URL\n".utf8))
            exit(64)
        }
        let (storeURL, keyURL) = (URL(fileURLWithPath: arguments[3]), URL(fileURLWithPath: arguments[4]))
        #if EncryptedTokenStore
        let store = try await EncryptedFileTokenStore(fileURL: storeURL, key: .keyFile(keyURL))
        #else
        let store = FileTokenStore(fileURL: storeURL)
        #endif
        let session = try await OIDCAdopter.clientCredentialsSession(
            issuer: issuer, clientID: arguments[2], clientSecret: environment["APP_OAUTH_SERVICE_CLIENT_SECRET"] ?? "",
            scopes: ["read"], api: try Server(baseURL: arguments[0]), store: store)
        service = session
        call = { let _: TokenOwner = try await session.request { server, token in try await server.send(ClientEndpoint(), accessToken: token) } }
    } else {
        let adopter = try await OAuthAdopter(
            baseURL: arguments[0], clientID: arguments[1], clientSecret: environment["APP_OAUTH_CLIENT_SECRET"] ?? "",
            storeURL: URL(fileURLWithPath: arguments[2]), keyURL: URL(fileURLWithPath: arguments[3]))
        service = adopter.service
        call = { _ = try await adopter.me() }
    }
    let signedOut = LockedCounter()
    let events = Task {
        for await event in service.events() {
            if case .signedOut = event { signedOut.increment() }
        }
    }
    var calls = 0
    var errors: [String] = []
    let clock = ContinuousClock()
    let end = clock.now + .seconds(seconds)
    while clock.now < end {
        do {
            try await call()
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
