public import Foundation

extension FakeTokenServer.Reply {
    /// A JSON answer of `object`, its keys sorted (`Content-Type: application/json`).
    public static func json(_ status: Int, object: [String: Any], headers: [String: String] = [:]) -> Self {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return .json(status, String(decoding: data, as: UTF8.self), headers: headers)
    }
}

extension FakeTokenServer {
    /// An unsigned JWT as a token server writes one: `header` (the base64url of its JSON,
    /// `eyJhbGciOiJSUzI1NiJ9`, say), the base64url of `claims`, and `signature` (junk: the SDK
    /// does not verify access or ID tokens' signatures).
    public static func jwt(header: String, claims: String, signature: String) -> String {
        header + "." + base64URL(Data(claims.utf8)) + "." + signature
    }

    /// `data` in base64url without padding (RFC 4648 §5), as JWTs write their parts.
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
