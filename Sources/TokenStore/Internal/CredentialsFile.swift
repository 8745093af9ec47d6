import Foundation

/// The JSON a plain file store writes (and an encrypted store encrypts):
///
/// ```json
/// {"credentials":{"accessToken":"…","accessTokenExpiresAt":806839200.5,"memberID":"42","refreshToken":"…"},"version":1}
/// ```
///
/// `accessTokenExpiresAt` is seconds since 2001-01-01 UTC (Foundation's reference date),
/// the one representation that gives back exactly the `Date` that was saved.
enum CredentialsFile {
    /// The format version this code writes and reads.
    static let formatVersion = 1

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
            return Array(try encoder.encode(Envelope(version: formatVersion, credentials: credentials)))
        } catch {
            throw TokenStoreError(
                kind: .invalidCredentials, path: path,
                reason: "the credentials cannot be written as JSON (is the expiry date finite?)"
            )
        }
    }

    /// The credentials in `bytes`, or an error naming `path` and what is wrong. Decoding
    /// errors are summarised by hand: their own text could quote the file's contents.
    static func decode(_ bytes: [UInt8], path: String) throws(TokenStoreError) -> Credentials {
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
        guard version == formatVersion else {
            throw TokenStoreError(
                kind: .unsupportedFormatVersion, path: path,
                reason: "has format version \(version); this code reads version \(formatVersion)"
            )
        }
        do {
            return try decoder.decode(Envelope.self, from: data).credentials
        } catch let error as DecodingError {
            throw unreadable("is not a valid token store file (\(summary(of: error)))")
        } catch {
            throw unreadable("is not a valid token store file")
        }
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
