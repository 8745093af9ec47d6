// A second front end in its own process, for the slow tests: it opens the same encrypted
// store as the test process, makes a RepositoryService, and calls the API a few times.
// When the access token has expired, the processes sharing the store must refresh once
// between them.
//
// usage: SessionProbe [--dpop] <server-url> <store-path> <key-file> <calls>
// prints one line per call ("ok <member id>") and exits 0; on failure prints the error
// (which never contains a token) to stderr and exits 1. With --dpop the service binds
// sign-ins to EdDSA keys (Configuration.dpop), the stored session must be DPoP-bound, and a
// last line names the key it signed with: "key <thumbprint>" (RFC 7638: a hash of the public
// key, never the private one).
import AppRepository
import Foundation
import NetworkService
import SessionEngine
import TokenStore

var arguments = Array(CommandLine.arguments.dropFirst())
let dpop = arguments.first == "--dpop"
if dpop { arguments.removeFirst() }
guard arguments.count == 4, let calls = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: SessionProbe [--dpop] <server-url> <store-path> <key-file> <calls>\n".utf8))
    exit(64)
}

#if EncryptedTokenStore
do {
    let server = try Server(baseURL: arguments[0], transport: URLSessionTransport(timeout: 20))
    let store = try await EncryptedFileTokenStore(
        fileURL: URL(fileURLWithPath: arguments[1]), key: .keyFile(URL(fileURLWithPath: arguments[2])))
    var configuration = SessionService.Configuration.appAPI
    if dpop { configuration.dpop = DPoPConfiguration(keys: .eddsa) }
    let service = RepositoryService(server: server, tokenStore: store, configuration: configuration)
    for _ in 0..<calls {
        let member = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        print("ok \(member.id.uuidString)")
    }
    if dpop {
        guard let key = try await store.load()?.dpopKey else {
            FileHandle.standardError.write(Data("SessionProbe: --dpop, but the stored session has no DPoP key\n".utf8))
            exit(1)
        }
        print("key \(key.thumbprint)")
    }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("SessionProbe: \(error)\n".utf8))
    exit(1)
}
#else
FileHandle.standardError.write(Data("SessionProbe: built without the EncryptedTokenStore trait\n".utf8))
exit(1)
#endif
