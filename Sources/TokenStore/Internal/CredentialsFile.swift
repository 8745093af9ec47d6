import Foundation

/// The JSON a plain file store writes (and an encrypted store encrypts):
///
/// ```json
/// {"credentials":{"accessToken":"…","accessTokenExpiresAt":806839200.5,"memberID":"42","refreshToken":"…"},"version":1}
/// ```
///
/// `accessTokenExpiresAt` is seconds since 2001-01-01 UTC (Foundation's reference date),
/// the one representation that gives back exactly the `Date` that was saved.
///
/// Version 2 is the same with a DPoP key (`StoredDPoPKey` has its form) and the access token's
/// type, inside `credentials`:
///
/// ```json
/// {"credentials":{…,"accessTokenType":"DPoP","dpopKey":{"alg":"EdDSA","d":"…","jwk":{"crv":"Ed25519","kty":"OKP","x":"…"}},…},"version":2}
/// ```
///
/// Version 1 is written whenever the credentials have neither, so a bearer session's bytes are
/// what release 0.9.0 wrote; version 2 only when they have one, so that a reader of version 1
/// refuses the file ("has format version 2; this code reads version 1") instead of dropping the
/// key, as it would drop an unknown member of version 1, and writing the session back without it.
enum CredentialsFile {
    /// The newest format version this code writes and reads.
    static let formatVersion = 2
    /// The version of a session without a DPoP key, as every release wrote until 0.10.
    static let bearerFormatVersion = 1

    /// The first bytes of an encrypted store file (see `EncryptedFileFormat`), known here
    /// so that a plain store pointed at an encrypted file can say so, even when the
    /// encrypted store is not compiled in.
    static let encryptedMagic: [UInt8] = [0x89, 0x54, 0x4B, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]

    private struct Envelope: Codable {
        var version: Int
        var credentials: Credentials
    }

    private struct VersionOnly: Decodable {
        var version: Int?
    }

    /// The file contents for `credentials`.
    static func encode(_ credentials: Credentials, path: String) throws(TokenStoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let version = credentials.dpopKey == nil && credentials.accessTokenType == nil ? bearerFormatVersion : formatVersion
            return Array(try encoder.encode(Envelope(version: version, credentials: credentials)))
        } catch {
            throw TokenStoreError(
                kind: .invalidCredentials, path: path,
                reason: "the credentials cannot be written as JSON (is the expiry date finite?)"
            )
        }
    }

    /// The credentials in `bytes`, or an error naming `path` and what is wrong. Decoding
    /// errors are summarised by hand: their own text could quote the file's contents.
    ///
    /// `newestVersion` is the newest version read: ``formatVersion``, or 1 to stand in for the
    /// code of a release before 0.10 in tests.
    static func decode(_ bytes: [UInt8], path: String, newestVersion: Int = formatVersion) throws(TokenStoreError) -> Credentials {
        func unreadable(_ reason: String) -> TokenStoreError {
            TokenStoreError(kind: .unreadable, path: path, reason: reason)
        }
        if bytes.isEmpty {
            throw unreadable("is empty")
        }
        if bytes.starts(with: encryptedMagic) {
            throw unreadable("is an encrypted token store file, not a plain one (open it with EncryptedFileTokenStore)")
        }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let version: Int?
        do {
            version = try decoder.decode(VersionOnly.self, from: data).version
        } catch {
            throw unreadable("is not a token store file (not JSON, or truncated)")
        }
        guard let version else {
            throw unreadable("is not a token store file (it has no format version)")
        }
        guard (bearerFormatVersion...newestVersion).contains(version) else {
            let read = switch newestVersion - bearerFormatVersion {
            case 0: "version \(newestVersion)"
            case 1: "versions \(bearerFormatVersion) and \(newestVersion)"
            default: "versions \(bearerFormatVersion) to \(newestVersion)"
            }
            throw TokenStoreError(
                kind: .unsupportedFormatVersion, path: path,
                reason: "has format version \(version); this code reads \(read)"
            )
        }
        let credentials: Credentials
        do {
            credentials = try decoder.decode(Envelope.self, from: data).credentials
        } catch {
            throw unreadable("is not a valid token store file (\(summary(of: error)))")
        }
        if version == bearerFormatVersion, newestVersion > bearerFormatVersion,
           credentials.dpopKey != nil || credentials.accessTokenType != nil {
            throw unreadable("is not a valid token store file (`credentials.dpopKey` and `credentials.accessTokenType` need format version 2)")
        }
        return credentials
    }

    /// Which field is wrong, without the values, for any error decoding can throw.
    private static func summary(of error: any Error) -> String {
        if let error = error as? CredentialsFieldError { return error.description }
        if let error = error as? DecodingError { return summary(of: error) }
        return "invalid contents"
    }

    /// Which field is wrong, without the values.
    private static func summary(of error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : "`" + path.map(\.stringValue).joined(separator: ".") + "`"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(field(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context):
            return "\(field(context.codingPath)) is null"
        case .typeMismatch(_, let context):
            return "\(field(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return "\(field(context.codingPath)) is invalid"
        @unknown default:
            return "invalid contents"
        }
    }
}
