import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Configuration bounds and file permissions")
struct ConfigurationTests {
    /// Issue 11: lifetimes near Int.max were accepted and crashed the first sign-in (overflow).
    @Test("every number is bounded: out-of-range values are refused by validate(), naming the value")
    func numericBounds() {
        func refused(_ change: (inout ServerConfiguration) -> Void, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
            var configuration = TestServer.configuration()
            change(&configuration)
            do {
                try configuration.validate()
                Issue.record("\(name) was accepted", sourceLocation: sourceLocation)
            } catch {
                #expect(error.description.contains(name), "\(error)", sourceLocation: sourceLocation)
            }
        }
        refused({ $0.accessTokenLifetime = .seconds(Int.max) }, "access token lifetime")
        refused({ $0.accessTokenLifetime = .seconds(86_401) }, "access token lifetime")
        refused({ $0.accessTokenLifetime = .zero }, "access token lifetime")
        refused({ $0.accessTokenLifetime = .milliseconds(1500) }, "access token lifetime")
        refused({ $0.refreshTokenLifetime = .seconds(Int.max) }, "refresh token lifetime")
        refused({ $0.refreshTokenLifetime = .seconds(315_360_001) }, "refresh token lifetime")
        refused({ $0.refreshReuseGrace = .seconds(Int.max) }, "refresh reuse grace")
        refused({ $0.refreshReuseGrace = .seconds(3601) }, "refresh reuse grace")
        refused({ $0.refreshReuseGrace = .seconds(-1) }, "refresh reuse grace")
        refused({ $0.bcryptCost = Int.max }, "bcrypt cost")
        refused({ $0.bcryptCost = 3 }, "bcrypt cost")
        refused({ $0.port = Int.max }, "port")
        refused({ $0.port = -1 }, "port")
    }

    @Test("the largest allowed lifetimes work: sign-in and refresh do not overflow")
    func largestLifetimes() async throws {
        let configuration = TestServer.configuration(
            accessTokenLifetime: ServerConfiguration.accessTokenLifetimeRange.upperBound,
            refreshTokenLifetime: ServerConfiguration.refreshTokenLifetimeRange.upperBound,
            refreshReuseGrace: ServerConfiguration.refreshReuseGraceRange.upperBound
        )
        try configuration.validate()
        try await TestServer.run(configuration: configuration) { api in
            let session = try await api.signUp("max@example.com")
            #expect(session.tokens.expiresIn == 86_400)
            #expect(try await api.refresh(session.tokens.refreshToken).status == .ok)
            #expect(try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken).status == .ok)
        }
    }

    static func withFolder(mode: mode_t, _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-server-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(chmod(folder, mode) == 0)
        try body(folder)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Issue 11: the server started with jwt-secret 0644 and its folder 0755.
    @Test("a data folder or jwt-secret that group or others can access is refused with a clear message")
    func permissions() throws {
        try Self.withFolder(mode: 0o755) { folder in
            #expect {
                _ = try SecretFile.loadOrCreate(in: folder)
            } throws: { error in
                "\(error)".contains("the data folder can be accessed by group or others (mode 0755)") && "\(error)".contains("chmod 700")
            }
            // Nothing was written into the open folder.
            #expect(!FileManager.default.fileExists(atPath: folder + "/jwt-secret"))
        }
        try Self.withFolder(mode: 0o700) { folder in
            let secret = try SecretFile.loadOrCreate(in: folder)
            let path = folder + "/jwt-secret"
            #expect(try Self.mode(path) == 0o600)
            #expect(try SecretFile.loadOrCreate(in: folder) == secret)
            #expect(chmod(path, 0o644) == 0)
            #expect {
                _ = try SecretFile.loadOrCreate(in: folder)
            } throws: { error in
                "\(error)".contains("the signing secret file can be accessed by group or others (mode 0644)") && "\(error)".contains("chmod 600")
            }
            #expect(chmod(path, 0o600) == 0)
            #expect(chmod(folder, 0o750) == 0)
            #expect(throws: ConfigurationError.self) { _ = try SecretFile.loadOrCreate(in: folder) }
        }
        // A missing folder is created 0700.
        try Self.withFolder(mode: 0o700) { parent in
            let folder = parent + "/data"
            _ = try SecretFile.loadOrCreate(in: folder)
            #expect(try Self.mode(folder) == 0o700)
        }
    }

    static func realPath(_ path: String) throws -> String {
        let resolved = try #require(realpath(path, nil))
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func write(_ text: String, to path: String, mode: mode_t) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        #expect(chmod(path, mode) == 0)
    }

    /// Issue 26 (14): a linked data folder or secret (a Kubernetes secret mount) was refused as
    /// "mode 0777", the link's own mode, which no chmod can change.
    @Test("a data folder or jwt-secret reached through symbolic links is judged by its target, and a refusal names the target to chmod")
    func symbolicLinks() throws {
        try Self.withFolder(mode: 0o700) { root in
            // A data folder that is a link to a private folder.
            let real = root + "/real"
            try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false)
            #expect(chmod(real, 0o700) == 0)
            #expect(symlink(real, root + "/data") == 0)
            let secret = try SecretFile.loadOrCreate(in: root + "/data")
            #expect(try SecretFile.loadOrCreate(in: real) == secret)

            // A secret mounted as Kubernetes does: jwt-secret -> ..data/jwt-secret, ..data -> ..2026_01_01.
            let mount = root + "/mount"
            try FileManager.default.createDirectory(atPath: mount + "/..2026_01_01", withIntermediateDirectories: true)
            #expect(chmod(mount, 0o700) == 0)
            let mounted = String(repeating: "k", count: 40)
            try Self.write(mounted + "\n", to: mount + "/..2026_01_01/jwt-secret", mode: 0o400)
            #expect(symlink("..2026_01_01", mount + "/..data") == 0)
            #expect(symlink("..data/jwt-secret", mount + "/jwt-secret") == 0)
            #expect(try SecretFile.loadOrCreate(in: mount) == mounted)

            // The same mount readable by others is refused, naming the target and what to run on it.
            let target = try Self.realPath(mount + "/jwt-secret")
            #expect(chmod(target, 0o644) == 0)
            #expect {
                _ = try SecretFile.loadOrCreate(in: mount)
            } throws: { error in
                let message = "\(error)"
                return message.contains("a link to \(target)") && message.contains("(mode 0644)") && message.contains("`chmod 600 \(target)`")
            }
        }
    }

    @Test("a jwt-secret that is a link to a missing file is refused with a message, not retried forever")
    func danglingSecretLink() throws {
        try Self.withFolder(mode: 0o700) { folder in
            #expect(symlink(folder + "/nowhere", folder + "/jwt-secret") == 0)
            #expect {
                _ = try SecretFile.loadOrCreate(in: folder)
            } throws: { error in
                "\(error)".contains("is a symbolic link to a missing file")
            }
        }
    }
}

