import Foundation
public import AppSDKTesting
import NetworkService

/// The secrets of a hostile-server run, and every encoding in which the SDK sends one: what
/// the kit searches every output for.
///
/// Each secret is short (under the 20 characters of the SDK's token-shaped redaction) and
/// holds characters that every encoding writes differently (`/`, `+`, `=`, a space), so a
/// leak shows whichever way it was written: an output hides a secret only by not containing it.
/// Tokens keep to RFC 6750's `b64token` alphabet, so a stricter SDK still takes them.
public enum HostileSecrets {
    /// The client id (not a secret; it is half of the Basic credentials).
    public static let clientID = "kit-client"
    /// The client secret.
    public static let clientSecret = "Cs.Z3x8/+=&? y"
    /// The access token the provider issues.
    public static let accessToken = "AT.q7Wz/4k+Pn="
    /// The refresh token the provider issues.
    public static let refreshToken = "RT.n2Hv/8m+Lc="
    /// The device code the provider issues.
    public static let deviceCode = "DC.p6Tg/1y+Mb="
    /// The access token of a session the kit starts before a refresh, a sign-out or a userinfo call.
    public static let storedAccessToken = "AT.s9Kf/2x+Ra="
    /// The refresh token of that session.
    public static let storedRefreshToken = "RT.s5Jd/3w+Qe="
    /// The user code (not a secret: the user types it).
    public static let userCode = "WDJB-MJHT"
    /// The account the well-behaved provider signs in.
    public static let subject = "alice"

    /// The secrets the kit knows before a run: those it holds and those the provider issues.
    public static let known = [clientSecret, accessToken, refreshToken, deviceCode, storedAccessToken, storedRefreshToken]

    /// Form fields whose values are secrets (RFC 6749, 7009, 8628).
    static let secretFields: Set<String> = ["client_secret", "refresh_token", "device_code", "code", "code_verifier", "token",
                                            "access_token", "password"]

    /// Every secret the requests carried: the form fields above, the `Authorization` header's
    /// Bearer token and Basic credentials (decoded, each half form-decoded), with the known ones.
    public static func collect(from requests: [LoopbackHTTPServer.Request]) -> [String] {
        var secrets = Set(known)
        for request in requests {
            for (name, value) in FormDecoding.fields(of: request.body) where secretFields.contains(name) && !value.isEmpty {
                secrets.insert(value)
            }
            guard let authorization = request.header("Authorization") else { continue }
            if authorization.hasPrefix("Bearer ") {
                secrets.insert(String(authorization.dropFirst(7)))
            } else if authorization.hasPrefix("Basic "),
                      let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                      let colon = decoded.firstIndex(of: ":") {
                let secret = FormDecoding.decode(String(decoded[decoded.index(after: colon)...]))
                if !secret.isEmpty { secrets.insert(secret) }
            }
        }
        return secrets.filter { $0.count >= 4 }.sorted()
    }

    /// `secret` in every encoding the SDK sends one in, each with its name: as it is,
    /// percent-encoded (a space as `%20`), form-encoded (a space as `+`), JSON-escaped (`\/`),
    /// base64 (of itself, and of the Basic credentials `id:secret` the SDK builds).
    public static func encodings(of secret: String) -> [(name: String, text: String)] {
        var forms: [(String, String)] = [("raw", secret),
                                         ("percent-encoded", SDKFormEncoding.encode(secret, spaceAsPlus: false)),
                                         ("form-encoded", SDKFormEncoding.encode(secret, spaceAsPlus: true)),
                                         ("JSON-escaped", jsonEscaped(secret)),
                                         ("base64", Data(secret.utf8).base64EncodedString())]
        let basic = SDKFormEncoding.encode(clientID, spaceAsPlus: true) + ":" + SDKFormEncoding.encode(secret, spaceAsPlus: true)
        forms.append(("base64 of the Basic credentials", Data(basic.utf8).base64EncodedString()))
        forms.append(("Basic credentials", basic))
        // A lower-case percent-encoding is the same bytes to a server, and an echo may use it.
        forms.append(("percent-encoded, lower case", lowercasedEscapes(SDKFormEncoding.encode(secret, spaceAsPlus: false))))
        var seen = Set<String>()
        return forms.filter { seen.insert($0.1).inserted }
    }

    /// The name of the first encoding of `secret` that `text` holds (see
    /// ``encodings(of:)``), or `8 characters of it` when it holds a piece that long; `nil` when
    /// it holds none.
    public static func leak(of secret: String, in text: String) -> String? {
        leak(of: secret, encoded: encodings(of: secret), in: text)
    }

    /// ``leak(of:in:)`` with the encodings made once. A secret over 64 characters is looked for
    /// whole only (its 8-character pieces would take a long time to look for, and match anything).
    static func leak(of secret: String, encoded: [(name: String, text: String)], in text: String) -> String? {
        for (name, encoded) in encoded where text.contains(encoded) {
            return name
        }
        let characters = Array(secret)
        if characters.count > 8, characters.count <= 64 {
            for start in 0...(characters.count - 8) where text.contains(String(characters[start..<start + 8])) {
                return "8 characters of it"
            }
        }
        return nil
    }

    /// `text` as a JSON string's contents, the way JSONSerialization writes it (`/` as `\/`).
    public static func jsonEscaped(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data()
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst(2).dropLast(2))
    }

    private static func lowercasedEscapes(_ text: String) -> String {
        var out = ""
        var pending = 0
        for character in text {
            if character == "%" { pending = 2; out.append(character); continue }
            if pending > 0 { pending -= 1; out += character.lowercased() } else { out.append(character) }
        }
        return out
    }
}
