import Foundation

/// Userinfo answers that name nobody, or not in a string, or in far too many bytes: a device
/// sign-in that learns its account from userinfo stores no session without a real `sub`.
/// (Userinfo naming another account than the session's is checked where the session's
/// account is known: `app-oauth whoami`, in the CLIs' tests.)
extension HostileMode {
    static let userinfo: [HostileMode] = [
        subject("no sub", HostileAnswers.jsonText(["name": "Alice"])),
        subject("an empty sub", HostileAnswers.jsonText(["sub": ""])),
        subject("a sub that is a number", #"{"sub":42}"#),
        subject("a sub that is null", #"{"sub":null}"#),
        HostileMode("userinfo endpoint (device sign-in): a 401", .userinfo, attacks: .deviceSignIn, expecting: .refused) { script in
            script.userinfo = { _ in .json(401, #"{"error":"invalid_token"}"#, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]) }
        },
        HostileMode("userinfo endpoint: a JSON array", .userinfo, attacks: .userinfo, expecting: .refused) { script in
            script.userinfo = { _ in HostileAnswers.ok(#"[{"sub":"alice"}]"#) }
        },
        HostileMode("userinfo endpoint: a 200 body of 16 MiB + 1 byte", .userinfo, attacks: .userinfo, expecting: .refused,
                    overTheSizeLimit: true) { script in
            script.userinfo = { _ in HostileAnswers.ok(oversized(["sub": "alice"])) }
        },
    ]

    /// A device sign-in (no ID token) whose userinfo answers `body`: no session is stored.
    static func subject(_ what: String, _ body: String) -> HostileMode {
        HostileMode("userinfo endpoint (device sign-in): \(what)", .userinfo, attacks: .deviceSignIn, expecting: .refused) { script in
            script.userinfo = { _ in HostileAnswers.ok(body) }
        }
    }
}
