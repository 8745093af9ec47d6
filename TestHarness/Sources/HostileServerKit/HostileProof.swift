import Foundation
import AppSDKTesting

/// A DPoP proof (RFC 9449 §4.2) as a provider received it, read without checking its
/// signature: what the kit checks a DPoP-bound session's requests by.
struct HostileProof {
    /// The proof as sent (the `DPoP` header's value).
    let text: String
    /// Its first segment, as sent: constant for one key (`typ`, `alg`, `jwk`).
    let headerSegment: String
    /// Its signature segment, as sent.
    let signature: String
    /// The decoded header.
    let header: [String: Any]
    /// The decoded payload (`jti`, `htm`, `htu`, `iat`, and `ath`, `nonce` when it has them).
    let payload: [String: Any]

    /// The proof `text`, or `nil` when it is not three base64url segments of which the first
    /// two are JSON objects.
    init?(_ text: String) {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3, let header = Self.object(segments[0]), let payload = Self.object(segments[1]) else { return nil }
        self.text = text
        headerSegment = segments[0]
        signature = segments[2]
        self.header = header
        self.payload = payload
    }

    /// The proof `request` carried, if any (`nil` also for one that does not parse).
    init?(of request: LoopbackHTTPServer.Request) {
        guard let text = request.header("DPoP") else { return nil }
        self.init(text)
    }

    var htm: String? { payload["htm"] as? String }
    var htu: String? { payload["htu"] as? String }
    var ath: String? { payload["ath"] as? String }
    var nonce: String? { payload["nonce"] as? String }

    /// A base64url segment's JSON object.
    static func object(_ segment: String) -> [String: Any]? {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// `bytes` as base64url without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
