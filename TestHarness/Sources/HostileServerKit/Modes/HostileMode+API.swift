import Foundation
import NetworkService

/// The API's answers to a call with the session's access token, through `Server.send`: the
/// token never follows a redirect elsewhere nor shows in an error, the server's text shows no
/// control character, a body over the limit is refused by it, and a silent API ends in time.
extension HostileMode {
    static let api: [HostileMode] = [
        apiMode("a 401 whose challenge echoes the access token percent-encoded and writes the clipboard", .refused) { script in
            script.api = { context in
                HostileAnswers.raw("HTTP/1.1 401 Unauthorized",
                                   headerLines: [#"WWW-Authenticate: Bearer error="invalid_token", error_description="bad "#
                                       + SDKFormEncoding.encode(context.bearerToken ?? "", spaceAsPlus: false) + clipboardWrite + #"""#],
                                   body: Data())
            }
        },
        apiMode("a 500 text body echoing the Authorization header and clearing the screen", .refused) { script in
            script.api = { context in
                .respond(status: 500, headers: ["Content-Type": "text/plain"],
                         body: Data("failed for \(context.request.header("Authorization") ?? "")\(clearScreen)".utf8))
            }
        },
        apiMode("a 403 whose JSON message reverses text", .refused) { script in
            script.api = { _ in .json(403, HostileAnswers.jsonText(["error": "forbidden", "message": "no " + bidiOverride])) }
        },
        apiMode("302 to another origin (the access token would follow)", .refused, check: { outcome in
            outcome.trapRequests.contains { $0.header("Authorization") != nil } ? "the other origin received the access token" : nil
        }) { $0.api = toTheOtherOrigin(302) },
        apiMode("a 200 body of 16 MiB + 1 byte", .refused, overTheSizeLimit: true) { script in
            script.api = { _ in HostileAnswers.ok(oversized(["sub": "alice"])) }
        },
        apiMode("never answers", .refused, timing: .slow()) { $0.api = silent },
    ]

    /// A mode whose API answers hostilely; the session is kept.
    static func apiMode(_ what: String, _ result: Result, timing: Timing = .prompt, overTheSizeLimit: Bool = false,
                        check: (@Sendable (HostileOutcome) -> String?)? = nil,
                        script: (inout HostileScript) -> Void) -> HostileMode {
        HostileMode("API (\(HostileOperation.apiCall)): \(what)", .api, attacks: .apiCall, expecting: result, session: .unchecked,
                    timing: timing, overTheSizeLimit: overTheSizeLimit, check: check, script: script)
    }
}
