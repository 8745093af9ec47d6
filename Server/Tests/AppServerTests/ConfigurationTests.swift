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
}
