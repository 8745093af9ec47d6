import Foundation

/// `bytes` in base64url without padding (RFC 4648 §5), as JWT parts are written.
public func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// A JWT around `payload` (whatever bytes): the fuzzer reaches the claims reader past the
/// base64url step. An unsigned header and a dummy signature, as the readers never check it.
public func jwt(payload: [UInt8]) -> String {
    base64URL(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + base64URL(payload) + ".c2ln"
}
