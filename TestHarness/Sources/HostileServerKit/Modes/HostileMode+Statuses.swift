import Foundation
import NetworkService

/// Statuses a token endpoint should not send, or sends in ways clients get wrong: each ends
/// the operation at once, with the status the server sent, and a failed refresh keeps the
/// session unless the server said the refresh token is dead.
extension HostileMode {
    static let statuses: [HostileMode] = [
        status("a final status 150 with a token body", .clientCredentialsSignIn, timing: .slow()) { context in
            HostileAnswers.raw("HTTP/1.1 150 Odd", headerLines: ["Content-Type: application/json"],
                               body: HostileAnswers.json(HostileAnswers.tokenFields(context)))
        },
        status("204 No Content", .clientCredentialsSignIn) { _ in .respond(status: 204) },
        status("302 without a Location", .clientCredentialsSignIn) { _ in .json(302, #"{"error":"moved"}"#) },
        status("307 without a Location", .refresh) { _ in .respond(status: 307) },
        status("401 invalid_client with a Basic challenge (RFC 6749 §5.2)", .clientCredentialsSignIn,
               check: statusReached(401)) { _ in
            HostileAnswers.oauthError(401, "invalid_client", "client authentication failed",
                                      headers: ["WWW-Authenticate": #"Basic realm="kit""#])
        },
        status("401 invalid_client with a Basic challenge (RFC 6749 §5.2)", .refresh,
               session: .ended(.refreshRefused(status: 401, code: "invalid_client")), check: statusReached(401)) { _ in
            HostileAnswers.oauthError(401, "invalid_client", "client authentication failed",
                                      headers: ["WWW-Authenticate": #"Basic realm="kit""#])
        },
        status("403 with an empty body", .clientCredentialsSignIn, check: statusReached(403)) { _ in .respond(status: 403) },
        status("403 with an empty body", .refresh, session: .ended(.refreshRefused(status: 403, code: nil)),
               check: statusReached(403)) { _ in .respond(status: 403) },
        status("418 with a text body", .clientCredentialsSignIn, check: statusReached(418)) { _ in
            .respond(status: 418, headers: ["Content-Type": "text/plain"], body: Data("I'm a teapot".utf8))
        },
        status("500 with an HTML page", .clientCredentialsSignIn, check: statusReached(500)) { _ in
            .respond(status: 500, headers: ["Content-Type": "text/html"], body: Data("<html><body>Internal error</body></html>".utf8))
        },
        status("503 with Retry-After of a day", .refresh, check: statusReached(503)) { _ in
            .respond(status: 503, headers: ["Retry-After": "86400"])
        },
        status("status 999", .clientCredentialsSignIn) { _ in HostileAnswers.oauthError(999, "odd", "a status from nowhere") },
        status("status 999", .refresh) { _ in HostileAnswers.oauthError(999, "odd", "a status from nowhere") },
        status("a status line that is not HTTP", .clientCredentialsSignIn) { _ in
            .raw(Data("SSH-2.0-OpenSSH_9.6\r\n\r\n".utf8))
        },
        HostileMode("token endpoint (client-credentials sign-in): an HTTP/1.0 200 without Content-Length, ended by closing",
                    .statuses, attacks: .clientCredentialsSignIn, expecting: .succeeds) { script in
            script.token = { context in
                .raw(Data("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8)
                    + HostileAnswers.json(HostileAnswers.tokenFields(context)))
            }
        },
        HostileMode("token endpoint (refresh): 400 invalid_grant ends the session", .statuses, attacks: .refresh,
                    expecting: .refused, session: .ended(.refreshTokenRejected("invalid_grant"))) { script in
            script.token = { _ in HostileAnswers.oauthError(400, "invalid_grant", "the refresh token is no longer valid") }
        },
    ]

    /// A mode whose token endpoint answers with a status the operation should refuse.
    /// A refresh refused with a 4xx (but 408, 429 and `invalid_grant`) ends the session with
    /// `refreshRefused` (the engine's session rules); any other failure keeps it.
    static func status(_ what: String, _ operation: HostileOperation, timing: Timing = .prompt, session: Session = .byOperation,
                       check: (@Sendable (HostileOutcome) -> String?)? = nil,
                       _ answer: @escaping HostileScript.Answer) -> HostileMode {
        HostileMode("token endpoint (\(operation)): \(what)", .statuses, attacks: operation, expecting: .refused,
                    session: session, timing: timing, check: check) { $0.token = answer }
    }

    /// The SDK read the status the server sent (rather than waiting it out, or seeing another).
    static func statusReached(_ status: Int) -> @Sendable (HostileOutcome) -> String? {
        { outcome in
            outcome.statusCode == status ? nil
                : "the SDK did not read the server's \(status) (it read \(outcome.statusCode.map(String.init) ?? "no status")"
                + (outcome.hasTransportError(.timedOut) ? ", and timed out)" : ")")
        }
    }
}
