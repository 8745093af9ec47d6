import Foundation
import FuzzSupport
@testable import SessionEngine

/// The JWT payload reader (`UnverifiedJWT`): a hint for scheduling refreshes, read from a token
/// the server wrote. The first byte picks the shape: odd, the rest is the payload (JSON, put in
/// a JWT); even, the rest is the whole token text.
/// Invariants: a read token has three parts; its dates are finite and after 1970; its claim
/// names are sorted and distinct; a lifetime is positive, at most `exp − iat`; reading twice
/// gives one answer.
@main enum JWTPayloadFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let token = selector & 1 == 1 ? jwt(payload: rest) : String(decoding: rest, as: UTF8.self)
        guard let claims = UnverifiedJWT(token) else { return }
        require(token.split(separator: ".", omittingEmptySubsequences: false).count == 3, "a token without three parts was read")
        for date in [claims.expiresAt, claims.issuedAt].compactMap({ $0 }) {
            require(date.timeIntervalSince1970.isFinite && date.timeIntervalSince1970 > 0, "date \(date.timeIntervalSince1970)")
        }
        require(claims.claimNames == Array(Set(claims.claimNames)).sorted(), "claim names not sorted and distinct")
        if let lifetime = claims.lifetime {
            let stated = claims.expiresAt!.timeIntervalSince(claims.issuedAt!)
            require(lifetime.isFinite && lifetime > 0 && lifetime <= stated, "lifetime \(lifetime) for exp − iat \(stated)")
        }
        let again = UnverifiedJWT(token)
        require(again?.subject == claims.subject && again?.expiresAt == claims.expiresAt
                && again?.claimNames == claims.claimNames, "two reads of one token differ")
        if claims.subject != nil { require(claims.claimNames.contains("sub"), "a subject without a `sub` claim") }
    }
}
