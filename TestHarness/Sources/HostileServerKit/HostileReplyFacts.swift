import Foundation
import AppSDKTesting

/// What a provider's reply said, as far as DPoP goes: its status and its `DPoP-Nonce` values
/// (a raw reply's too, each line as written).
struct HostileReplyFacts {
    let status: Int?
    let nonces: [String]

    init(_ reply: LoopbackHTTPServer.Reply) {
        switch reply {
        case let .respond(status, headers, _):
            self.status = status
            nonces = headers.filter { $0.key.lowercased() == "dpop-nonce" }.map(\.value)
        case let .delayed(_, inner):
            self = HostileReplyFacts(inner)
        case let .raw(bytes):
            let head = String(decoding: bytes.prefix(1_048_576), as: UTF8.self).components(separatedBy: "\r\n\r\n").first ?? ""
            let lines = head.components(separatedBy: "\r\n")
            status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
            nonces = lines.dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "dpop-nonce" else { return nil }
                return String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
        case let .truncate(status, _, _), let .stream(status, _, _, _, _):
            self.status = status
            nonces = []
        case .dropConnection, .silent:
            status = nil
            nonces = []
        }
    }

    /// The nonce a challenge (RFC 9449 §8, §9: a 400 or 401 with a `DPoP-Nonce`) asked for.
    var challengeNonce: String? {
        guard status == 400 || status == 401 else { return nil }
        return nonces.first
    }
}
