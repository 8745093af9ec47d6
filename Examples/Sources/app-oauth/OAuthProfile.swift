import CLISupport
import Foundation
import OAuthSignIn
import SessionEngine

/// What `sign-in` remembers beside the store for the other commands: the issuer, the
/// client, the flow, the scopes, where the client secret is read from (its path, never the
/// secret) and the ID token's claims (for `whoami` when the server has no userinfo).
///
/// The profile and the session in the store are one unit: ``ProfileBoundStore`` writes the
/// profile before the tokens and removes it after them, both inside the store's exclusive
/// section, so the store never holds tokens without the profile they were issued under.
struct OAuthProfile: Codable, Sendable, Equatable {
    /// How the session was started.
    enum Mode: String, Codable, Sendable {
        case browser, device
        case clientCredentials = "client-credentials"
    }

    var issuer: URL
    var clientID: String
    var mode: Mode
    var scopes: [String]
    /// The absolute path of the file holding the client secret, if the client has one.
    var clientSecretFile: String?
    /// The ID token's claims at sign-in, if there was one.
    var idTokenClaims: [String: JSONValue]?
    /// A new random id for every sign-in: what tells this sign-in's profile from the one of a
    /// later sign-in with the same issuer and client. `nil` in profiles written before it existed.
    var sessionID: String?
    /// The provider's discovery document as last read, so that a command with a valid stored
    /// token needs no network, and works while the provider is down. `nil` in profiles written
    /// before it was kept.
    var metadata: AuthorizationServerMetadata?
    /// When ``metadata`` was read; it is read again when older than ``metadataLifetime``.
    var discoveredAt: Date?
    /// The kind of DPoP key `sign-in --dpop` bound the session to (the key itself is in the
    /// store, with the tokens); `nil` for a bearer session and in profiles written before DPoP.
    var dpop: DPoPKeyChoice?

    /// How long a kept discovery document is used before it is read again: a day.
    static let metadataLifetime: TimeInterval = 86_400

    /// The kept discovery document, when there is one younger than ``metadataLifetime`` at `now`.
    func freshMetadata(at now: Date = Date()) -> AuthorizationServerMetadata? {
        guard let metadata, let discoveredAt, discoveredAt <= now.addingTimeInterval(60),
              now.timeIntervalSince(discoveredAt) < Self.metadataLifetime else { return nil }
        return metadata
    }

    /// Creates a profile for a new sign-in (with a new ``sessionID``).
    init(issuer: URL, clientID: String, mode: Mode, scopes: [String], clientSecretFile: String?,
         idTokenClaims: [String: JSONValue]? = nil, sessionID: String? = UUID().uuidString, dpop: DPoPKeyChoice? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.mode = mode
        self.scopes = scopes
        self.clientSecretFile = clientSecretFile
        self.idTokenClaims = idTokenClaims
        self.sessionID = sessionID
        self.dpop = dpop
    }

    /// Everything that names the session the profile belongs to: all but the ID token's
    /// claims, which a sign-in adds once the tokens are stored.
    struct Identity: Equatable, Sendable {
        let sessionID: String?
        let issuer: URL
        let clientID: String
        let mode: Mode
        let scopes: [String]
        let clientSecretFile: String?
    }

    /// The profile's ``Identity``.
    var identity: Identity {
        Identity(sessionID: sessionID, issuer: issuer, clientID: clientID, mode: mode, scopes: scopes,
                 clientSecretFile: clientSecretFile)
    }

    /// The client secret, read from ``clientSecretFile``.
    func clientSecret() throws(CLIError) -> String? {
        guard let clientSecretFile else { return nil }
        return try Self.readSecret(clientSecretFile)
    }

    /// The first line of the file at `path`, surrounding white space removed. A line ends at
    /// any line break (`\n`, `\r\n`, `\r`), so a file written on Windows gives the same secret.
    /// - Throws: ``ExitStatus/usage`` when the file cannot be read, has no secret on its first
    ///   line, or the secret holds a control character (never quoting the secret).
    static func readSecret(_ path: String) throws(CLIError) -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError(.usage, "cannot read the client secret file \(path): \((error as NSError).localizedDescription)")
        }
        // `\r\n` is one Character in Swift: split on every kind of line break, not on "\n".
        let secret = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard !secret.isEmpty else { throw CLIError(.usage, "the client secret file \(path) is empty") }
        guard !secret.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw CLIError(.usage, "the client secret file \(path) has a control character in its first line",
                           hint: "write the secret alone on the first line, as text")
        }
        return secret
    }

    /// Reads the profile at `url`; `nil` when there is none.
    static func load(_ url: URL) throws(CLIError) -> OAuthProfile? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(OAuthProfile.self, from: Data(contentsOf: url))
        } catch {
            throw CLIError(.store, "the sign-in profile \(url.path) cannot be read: \(error.localizedDescription)",
                           hint: "sign in again (app-oauth sign-in --issuer ... --client-id ...)")
        }
    }

    /// Writes the profile to `url` (mode 0600), atomically: a reader sees the old file or the
    /// new one, never a part.
    func save(_ url: URL) throws(CLIError) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try encoder.encode(self).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw CLIError(.store, "cannot write the sign-in profile \(url.path): \(error.localizedDescription)")
        }
    }
}
