// A second program with the generated client, for the cross-process test: it opens the
// encrypted store the test shares with it and sends `calls` concurrent `getMe` operations
// through docs/OPENAPI.md's client (OpenAPIAdopter), then prints `ok N`, `failed N` and the
// first few errors (which never contain a token), and exits 0.
//
// usage: OpenAPISessionProbe <server-url> <store-path> <key-file> <calls>
import Foundation
import OpenAPIAdopter

let arguments = CommandLine.arguments
guard arguments.count == 5, let serverURL = URL(string: arguments[1]), let calls = Int(arguments[4]), (1...1_000).contains(calls) else {
    FileHandle.standardError.write(Data("usage: OpenAPISessionProbe <server-url> <store-path> <key-file> <calls (1-1000)>\n".utf8))
    exit(64)
}

do {
    let adopter = try await OpenAPIAdopter(serverURL: serverURL, storeURL: URL(fileURLWithPath: arguments[2]),
                                           keyURL: URL(fileURLWithPath: arguments[3]))
    let errors = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<calls {
            group.addTask {
                do {
                    _ = try await adopter.me()
                    return nil
                } catch {
                    return String(describing: error)
                }
            }
        }
        var errors: [String] = []
        for await error in group { if let error { errors.append(error) } }
        return errors
    }
    print("ok \(calls - errors.count)")
    print("failed \(errors.count)")
    for error in errors.prefix(3) { print("error \(error)") }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("OpenAPISessionProbe: \(error)\n".utf8))
    exit(1)
}
