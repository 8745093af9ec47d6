import Foundation

/// What a token reply must hold before its tokens are kept, shared by every preset and sign-in
/// flow: tokens that can go into a header or a form as they are, and a token type this SDK
/// knows how to use.
package enum TokenSyntax {
    /// Why `token` cannot be used, or `nil` when it can: it must be visible ASCII (RFC 6750's
    /// `b64token` and every real token are), so a CR, LF, NUL, space or escape sequence never
    /// reaches a header, a log or a terminal (`app-oauth token` prints the token for `curl -H`).
    package static func problem(withToken token: String, named name: String) -> String? {
        if token.isEmpty { return "the \(name) is empty" }
        guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "the \(name) holds a character outside visible ASCII (a control character, space or non-ASCII)"
        }
        return nil
    }

    /// Why a reply's `token_type` cannot be used, or `nil` when it can: absent (taken as
    /// Bearer, as many servers omit it) or `Bearer` in any case, and `DPoP` in any case when the
    /// request carried a DPoP proof (`proved`, RFC 9449 §5). RFC 6749 §7.1: a client must not use
    /// a token whose type it does not understand (`mac`, `N_A`, empty, or `DPoP` unproved).
    package static func problem(withTokenType type: String?) -> String? {
        problem(withTokenType: type, proved: false)
    }

    /// ``problem(withTokenType:)`` for a reply to a request that carried a DPoP proof when
    /// `proved`: then `DPoP`, in any case, is understood too.
    package static func problem(withTokenType type: String?, proved: Bool) -> String? {
        guard let type else { return nil }
        if type.lowercased() == "bearer" { return nil }
        if proved, isDPoP(type) { return nil }
        let shown = String(type.unicodeScalars.prefix(32).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        if isDPoP(type) {
            return "the token type \"\(shown)\" is DPoP, but the request proved no key (RFC 9449 §5: a client must not use it)"
        }
        return "the token type \"\(shown)\" is not Bearer, and a token of a type the client does not understand must not be used (RFC 6749 §7.1)"
    }

    /// Whether `type` is `DPoP`, in any case (RFC 9449 §5; RFC 6749 §5.1: case-insensitive): the
    /// type of a DPoP-bound access token.
    package static func isDPoP(_ type: String) -> Bool {
        type.caseInsensitiveCompare("DPoP") == .orderedSame
    }

    /// Why a token reply cannot be used (``problem(withToken:named:)``,
    /// ``problem(withTokenType:proved:)``), as an error. Its reason names what is wrong, never a token.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
        /// What is wrong with the reply.
        package let reason: String
        /// The same as ``reason``.
        package var description: String { reason }
        /// The same as ``reason``.
        package var errorDescription: String? { reason }
    }
}
