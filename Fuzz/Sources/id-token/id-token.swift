import Foundation
import FuzzSupport
@testable import OAuthSignIn

/// OAuthSignIn's ID token claims reader (`IDTokenValidator.claims`, OpenID Connect Core
/// §3.1.3.7), on a token whose payload the fuzzer writes (odd first byte) or whose whole text
/// it writes (even first byte). The clock is fixed; bit 1 of the first byte sends a nonce.
/// Invariants: a token either reads or fails as `.idTokenInvalid` naming a check; what reads
/// has the issuer (a trailing slash aside), the client id among its audiences, an `azp` of the
/// client id when there are several, `exp` after now less the skew, `iat` before now plus the
/// skew, the nonce sent, a non-empty subject; a wrong nonce is refused without showing the
/// expected one.
@main enum IDTokenFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let nonce = "n-0S6_WzA2Mj-fuzz-nonce"
    static let provider: OAuthProvider = {
        var provider = OAuthProvider(
            metadata: AuthorizationServerMetadata(issuer: URL(string: "https://issuer.example.com/")!,
                                                  tokenEndpoint: URL(string: "https://issuer.example.com/token")!),
            clientID: "fuzz-client")
        provider.clock = SignInClock(now: { now }, sleep: { _ in })
        return provider
    }()

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let token = selector & 1 == 1 ? jwt(payload: rest) : String(decoding: rest, as: UTF8.self)
        let sentNonce = selector & 2 == 2 ? nonce : nil
        do {
            let claims = try IDTokenValidator.claims(of: token, provider: provider, nonce: sentNonce)
            require(Discovery.normalized(claims.iss) == "https://issuer.example.com", "issuer \(claims.iss)")
            require(claims.aud.contains("fuzz-client"), "audience \(claims.aud)")
            if claims.aud.count > 1 { require(claims.azp == "fuzz-client", "several audiences, azp \(String(describing: claims.azp))") }
            require(claims.exp.addingTimeInterval(provider.clockSkew) > now, "expired")
            require(claims.iat <= now.addingTimeInterval(provider.clockSkew), "issued in the future")
            if let sentNonce { require(claims.nonce == sentNonce, "another nonce") }
            require(!claims.sub.isEmpty, "an empty subject")
        } catch {
            require(error.kind == .idTokenInvalid && error.idTokenCheck != nil, "failed with \(error.kind)")
            if sentNonce != nil, error.idTokenCheck == .nonce {
                require(!"\(error)".contains(nonce) && error.detail?.contains(nonce) != true, "an error shows the nonce")
            }
        }
    }
}
