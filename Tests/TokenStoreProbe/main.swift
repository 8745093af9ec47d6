// A small program the token-store tests start several times at once, to prove that the
// file stores hold across processes and survive a writer killed mid-save.
//
//   TokenStoreProbe increment --store plain|encrypted|keychain --path FILE [KEY] [--rounds N] [--start-at MS]
//       N times: inside withExclusiveAccess, load, add one to the count, save. With --start-at,
//       waits until that time (milliseconds since 1970) first, so that processes overlap; with
//       --pause-ms, pauses that long between rounds, outside the section, so that they alternate.
//   TokenStoreProbe save-loop --store plain|encrypted --path FILE [KEY]
//       Loads the count, prints "ready", then saves count+1, count+2, … until killed.
//   TokenStoreProbe load --store plain|encrypted --path FILE [KEY]
//       Prints the stored count ("none" when empty).
//   TokenStoreProbe save --store plain|encrypted --path FILE [KEY] --count N
//       Saves the credentials for count N.
//
//   KEY (encrypted only): --key-file FILE, or --passphrase-env VARIABLE with optional
//   --ops N --mem BYTES (Argon2id cost; cheap values keep the tests fast).
//
//   keychain: a KeychainTokenStore whose keychain is the folder FILE/keychain (FileKeychain,
//   shared by the processes) and whose App Group container is the folder FILE/container.
//
// The count lives in `accountID`; the tokens are "access-<count>" and "refresh-<count>", so
// a reader can check that a file holds one consistent save. Exit codes: 0 done, 1 store
// error (its description on stderr), 2 usage error.
import Foundation
import NetworkService
import TokenStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct UsageError: Error, CustomStringConvertible {
    var description: String
}

struct Arguments {
    var command: String
    var values: [String: String]

    init(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw UsageError(description: "missing command") }
        self.command = command
        values = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                throw UsageError(description: "expected --name value, got \(name)")
            }
            values[String(name.dropFirst(2))] = value
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw UsageError(description: "missing --\(name)") }
        return value
    }

    func integer(_ name: String, default defaultValue: Int) throws -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text) else { throw UsageError(description: "--\(name) needs a number") }
        return value
    }
}

func openStore(_ arguments: Arguments) async throws -> any TokenStore {
    let url = URL(fileURLWithPath: try arguments.required("path"))
    switch try arguments.required("store") {
    case "plain":
        return FileTokenStore(fileURL: url)
    case "keychain":
        return KeychainTokenStore(
            service: "com.example.probe", groupContainer: .success(url.appendingPathComponent("container")),
            keychain: try FileKeychain(folder: url.appendingPathComponent("keychain")))
    case "encrypted":
        #if EncryptedTokenStore
        if let keyFile = arguments.values["key-file"] {
            return try await EncryptedFileTokenStore(fileURL: url, key: .keyFile(URL(fileURLWithPath: keyFile)))
        }
        let variable = try arguments.required("passphrase-env")
        guard let passphrase = ProcessInfo.processInfo.environment[variable] else {
            throw UsageError(description: "environment variable \(variable) is not set")
        }
        let derivation = EncryptedFileTokenStore.KeyDerivation(
            opsLimit: UInt64(try arguments.integer("ops", default: 2)),
            memoryLimit: UInt64(try arguments.integer("mem", default: 64 << 20))
        )
        return try await EncryptedFileTokenStore(fileURL: url, key: .passphrase(passphrase, derivation: derivation))
        #else
        throw UsageError(description: "built without the EncryptedTokenStore trait")
        #endif
    case let other:
        throw UsageError(description: "unknown store \(other)")
    }
}

func credentials(count: Int) -> Credentials {
    Credentials(accessToken: AccessToken("access-\(count)"), refreshToken: "refresh-\(count)", accessTokenExpiresAt: nil, accountID: "\(count)")
}

func count(in credentials: Credentials?) throws -> Int {
    guard let credentials else { return 0 }
    guard let count = Int(credentials.accountID),
          credentials.accessToken.rawValue == "access-\(count)",
          credentials.refreshToken == "refresh-\(count)" else {
        throw UsageError(description: "the store holds inconsistent credentials")
    }
    return count
}

func run() async throws {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    let store = try await openStore(arguments)
    switch arguments.command {
    case "increment":
        if let start = arguments.values["start-at"] {
            guard let milliseconds = Double(start), milliseconds.isFinite else { throw UsageError(description: "--start-at needs a number") }
            let wait = min(max(milliseconds / 1000 - Date().timeIntervalSince1970, 0), 10)
            try await Task.sleep(for: .seconds(wait))
        }
        let pause = min(max(try arguments.integer("pause-ms", default: 0), 0), 1000)
        for _ in 0..<(try arguments.integer("rounds", default: 50)) {
            try await store.withExclusiveAccess {
                let current = try count(in: try await store.load())
                try await store.save(credentials(count: current + 1))
            }
            if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
        }
    case "save-loop":
        var current = try count(in: try await store.load())
        FileHandle.standardOutput.write(Data("ready\n".utf8))  // unbuffered: the test waits for it
        while true {
            current += 1
            try await store.save(credentials(count: current))
        }
    case "save":
        try await store.save(credentials(count: try arguments.integer("count", default: 1)))
    case "load":
        let stored = try await store.load()
        print(stored == nil ? "none" : String(try count(in: stored)))
    case let other:
        throw UsageError(description: "unknown command \(other)")
    }
}

do {
    try await run()
} catch let error as UsageError {
    FileHandle.standardError.write(Data("TokenStoreProbe: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("TokenStoreProbe: \(error)\n".utf8))
    exit(1)
}
