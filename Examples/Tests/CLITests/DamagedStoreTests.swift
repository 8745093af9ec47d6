import AppSDKHarness
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLIProcess {
    /// The files a store file `name` was moved aside to (`<name>.unreadable-<time>`), as paths.
    func movedAside(_ name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(name + ".unreadable-") }.sorted().map { path($0) }
    }

    /// The bytes of the file `name` in the test's folder.
    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Replaces the file `name` with `bytes`, mode 0600.
    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        chmod(path(name), 0o600)
    }
}

/// Damage done to an encrypted store file that was written by the program.
enum Damage: CaseIterable, CustomStringConvertible {
    case truncated, randomBytes, plainJSON, otherVersion, flippedByte

    /// Whether the store can tell it is damaged whatever the key: the sign-in then moves it by itself.
    var isPlainDamage: Bool { self != .flippedByte }

    func apply(to original: [UInt8]) -> [UInt8] {
        switch self {
        case .truncated:
            return Array(original.prefix(30))
        case .randomBytes:
            // Not starting with the format's magic (0x89) nor with "{" (a plain file).
            return [0x42] + (1..<original.count).map { _ in UInt8.random(in: 0...255) }
        case .plainJSON:
            return Array(#"{"version":1,"credentials":{"accessToken":"a","refreshToken":"r","memberID":"m"}}"#.utf8)
        case .otherVersion:
            var bytes = original
            bytes[8] = 9
            return bytes
        case .flippedByte:
            var bytes = original
            bytes[bytes.count - 20] ^= 0x01
            return bytes
        }
    }

    var description: String {
        switch self {
        case .truncated: "truncated"
        case .randomBytes: "random bytes"
        case .plainJSON: "plain JSON"
        case .otherVersion: "another format version"
        case .flippedByte: "a flipped byte"
        }
    }
}

extension CLITests {
    @Suite("A store that cannot be read: sign-in moves it aside (kept) and signs in; sign-out says what is true")
    struct DamagedStoreTests {
        static let passphrase = ["APP_STORE_PASSPHRASE": "damage test"]

        /// A folder whose encrypted store `member.enc` holds an anonymous session, then `damage`.
        static func damagedStore(_ damage: Damage) async throws -> (cli: CLIProcess, damaged: [UInt8]) {
            let cli = try CLIProcess()
            let first = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(), environment: passphrase)
            guard first.status == Exit.ok else { throw TestSetupError("the first sign-in failed: \(first)") }
            let damaged = damage.apply(to: try cli.bytes("member.enc"))
            try cli.write(damaged, to: "member.enc")
            return (cli, damaged)
        }

        @Test("an encrypted file that is truncated, random bytes, plain JSON or of another version: sign-in --anonymous moves it aside byte for byte (mode kept), says where, and signs in",
              .liveServer)
        func damagedEncryptedFile() async throws {
            for damage in Damage.allCases where damage.isPlainDamage {
                let (cli, damaged) = try await Self.damagedStore(damage)
                defer { cli.remove() }
                let signIn = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(), environment: Self.passphrase)
                #expect(signIn.status == Exit.ok, "\(damage): \(signIn)")
                let aside = try cli.movedAside("member.enc")
                #expect(aside.count == 1, "\(damage): \(aside)")
                for path in aside {
                    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == damaged, "\(damage): the bytes moved aside")
                    var info = stat()
                    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(damage): its mode is kept")
                    #expect(signIn.errorOutput.contains("moved aside") && signIn.errorOutput.contains(path), "\(damage): says where: \(signIn)")
                }
                let whoami = try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: Self.passphrase)
                #expect(whoami.status == Exit.ok, "\(damage): the new session is in the store: \(whoami)")
            }
        }

        @Test("a truncated plain store file: sign-in with email and password moves it aside and signs in", .liveServer)
        func damagedPlainFile() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let email = try await cli.signUp(cli.fileStore("sign-up.json"))
            try await cli.signUp(cli.fileStore())
            let damaged = Array(try cli.bytes("member.json").prefix(40))
            try cli.write(damaged, to: "member.json")

            let signIn = try await cli.run("app-member", ["sign-in", "--json"] + cli.fileStore(),
                                           environment: ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password])
            #expect(signIn.status == Exit.ok, "\(signIn)")
            let aside = try cli.movedAside("member.json")
            #expect(aside.count == 1)
            #expect(try aside.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) } == [damaged])
            #expect(signIn.output.contains(email), "signed in as the member: \(signIn)")
        }

        @Test("app-admin sign-in over random bytes moves them aside and signs the admin in", .adminAccount)
        func damagedStoreAdminSignIn() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            try cli.write([0x42] + (0..<200).map { _ in UInt8.random(in: 0...255) }, to: "member.enc")
            let signIn = try await cli.run("app-admin", ["sign-in"] + cli.encryptedStore(), environment: Self.passphrase.merging([
                "APP_EMAIL": LiveServerEnvironment.adminEmail ?? "", "APP_PASSWORD": LiveServerEnvironment.adminPassword ?? "",
            ]) { _, new in new })
            #expect(signIn.status == Exit.ok, "\(signIn)")
            #expect(try cli.movedAside("member.enc").count == 1)
            let reports = try await cli.run("app-admin", ["reports", "--page-size", "1"] + cli.encryptedStore(), environment: Self.passphrase)
            #expect(reports.status == Exit.ok, "\(reports)")
        }

        @Test("a file that does not decrypt (a flipped byte) stops sign-in with 66 and stays as it is; sign-in --move-aside moves it and signs in",
              .liveServer)
        func undecryptableFile() async throws {
            let (cli, damaged) = try await Self.damagedStore(.flippedByte)
            defer { cli.remove() }
            let refused = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(), environment: Self.passphrase)
            #expect(refused.status == Exit.store, "\(refused)")
            #expect(try cli.bytes("member.enc") == damaged)
            #expect(try cli.movedAside("member.enc").isEmpty)
            #expect(refused.errorOutput.contains("passphrase") && refused.errorOutput.contains("sign-in --move-aside"), "\(refused)")

            let moved = try await cli.run("app-member", ["sign-in", "--anonymous", "--move-aside"] + cli.encryptedStore(),
                                          environment: Self.passphrase)
            #expect(moved.status == Exit.ok, "\(moved)")
            let aside = try cli.movedAside("member.enc")
            #expect(try aside.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) } == [damaged])
            #expect(try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: Self.passphrase).status == Exit.ok)
        }

        @Test("a mistyped passphrase is not damage: sign-in exits 66 naming the passphrase, moves nothing, and the right one still works",
              .liveServer)
        func wrongPassphraseMovesNothing() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let first = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(), environment: Self.passphrase)
            try #require(first.status == Exit.ok, "\(first)")
            let good = try cli.bytes("member.enc")
            let typo = try await cli.run("app-member", ["sign-in", "--anonymous"] + cli.encryptedStore(),
                                         environment: ["APP_STORE_PASSPHRASE": "damage tset"])
            #expect(typo.status == Exit.store, "\(typo)")
            #expect(typo.errorOutput.contains("check the passphrase"), "\(typo)")
            #expect(try cli.bytes("member.enc") == good)
            #expect(try cli.movedAside("member.enc").isEmpty)
            #expect(try await cli.run("app-member", ["whoami"] + cli.encryptedStore(), environment: Self.passphrase).status == Exit.ok)
        }

        @Test("sign-out from a damaged or undecryptable file exits 66, says the server was not told and the file stays, and leaves it", .liveServer)
        func signOutLeavesTheFile() async throws {
            for damage in [Damage.truncated, .flippedByte] {
                let (cli, damaged) = try await Self.damagedStore(damage)
                defer { cli.remove() }
                let signOut = try await cli.run("app-member", ["sign-out"] + cli.encryptedStore(), environment: Self.passphrase)
                #expect(signOut.status == Exit.store, "\(damage): \(signOut)")
                #expect(signOut.errorOutput.contains("not signed out") && signOut.errorOutput.contains("the server was not told"),
                        "\(damage): \(signOut)")
                #expect(signOut.errorOutput.contains("the file is left as it is"), "\(damage): \(signOut)")
                #expect(signOut.errorOutput.contains("sign-in"), "\(damage): the hint names the remedy: \(signOut)")
                #expect(try cli.bytes("member.enc") == damaged, "\(damage)")
                #expect(try cli.movedAside("member.enc").isEmpty, "\(damage)")
            }
        }

        @Test("a damaged postgres row (truncated, random bytes) is moved to app_token_store_unreadable by sign-in; one that does not decrypt only with --move-aside; sign-out leaves it",
              .livePostgres)
        func damagedRow() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let env = CLIProcess.postgresEnvironment()
            let damages = [
                ("truncated", "substring(credentials from 1 for 30)"),
                ("random bytes", "decode('42' || md5(random()::text) || md5(random()::text), 'hex')"),
                ("a flipped byte", "set_byte(credentials, 70, get_byte(credentials, 70) # 1)"),
            ]
            for (name, damage) in damages {
                let account = CLIProcess.uniqueAccount("damaged")
                let store = cli.postgresStore(account: account)
                let first = try await cli.run("app-member", ["sign-in", "--anonymous"] + store, environment: env)
                try #require(first.status == Exit.ok, "\(first)")
                try PostgresShell.run("UPDATE \(PostgresShell.table) SET credentials = \(damage) WHERE account = \(PostgresShell.literal(account))")
                let damaged = try PostgresShell.rowHex(account)

                let signOut = try await cli.run("app-member", ["sign-out"] + store, environment: env)
                #expect(signOut.status == Exit.store, "\(name): \(signOut)")
                #expect(signOut.errorOutput.contains("the row is left as it is"), "\(name): \(signOut)")
                #expect(try PostgresShell.rowHex(account) == damaged, "\(name): sign-out left the row")

                if name == "a flipped byte" {
                    let refused = try await cli.run("app-member", ["sign-in", "--anonymous"] + store, environment: env)
                    #expect(refused.status == Exit.store, "\(name): \(refused)")
                    #expect(refused.errorOutput.contains("sign-in --move-aside"), "\(name): \(refused)")
                    #expect(try PostgresShell.rowHex(account) == damaged, "\(name)")
                }
                let signIn = try await cli.run("app-member", ["sign-in", "--anonymous"] + (name == "a flipped byte" ? ["--move-aside"] : []) + store,
                                               environment: env)
                #expect(signIn.status == Exit.ok, "\(name): \(signIn)")
                #expect(signIn.errorOutput.contains("moved aside") && signIn.errorOutput.contains("table app_token_store_unreadable, id "),
                        "\(name): says where: \(signIn)")
                #expect(try PostgresShell.rowHex(account, unreadable: true) == damaged, "\(name): the row was kept")
                let whoami = try await cli.run("app-member", ["whoami"] + store, environment: env)
                #expect(whoami.status == Exit.ok, "\(name): \(whoami)")
                _ = try await cli.run("app-member", ["sign-out"] + store, environment: env)
            }
        }
    }
}
