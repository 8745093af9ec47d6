// A second front end in its own process, for the slow tests: it opens the same encrypted
// store as the test process, makes a RepositoryService, and calls the API a few times.
// When the access token has expired, the processes sharing the store must refresh once
// between them.
//
// usage: SessionProbe <server-url> <store-path> <key-file> <calls>
// prints one line per call ("ok <member id>") and exits 0; on failure prints the error
// (which never contains a token) to stderr and exits 1.
import AppRepository
import Foundation
import NetworkService
import SessionEngine
import TokenStore

let arguments = CommandLine.arguments
guard arguments.count == 5, let calls = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: SessionProbe <server-url> <store-path> <key-file> <calls>\n".utf8))
    exit(64)
}

#if EncryptedTokenStore
do {
    let server = try Server(baseURL: arguments[1], transport: URLSessionTransport(timeout: 20))
    let store = try await EncryptedFileTokenStore(
        fileURL: URL(fileURLWithPath: arguments[2]), key: .keyFile(URL(fileURLWithPath: arguments[3])))
    let service = RepositoryService(server: server, tokenStore: store)
    for _ in 0..<calls {
        let member = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        print("ok \(member.id.uuidString)")
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
