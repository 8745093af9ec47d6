import Foundation

/// Header fields of every size and shape, written as raw bytes: whatever a transport makes of
/// them, nothing hangs, crashes, leaks or stores a wrong expiry.
extension HostileMode {
    static let headers: [HostileMode] = [
        header("a header field of 1 MiB", ["X-Pad: " + String(repeating: "a", count: 1_048_576)]),
        header("10,000 header fields", (0..<10_000).map { "X-Field-\($0): \($0)" }),
        header("two Content-Type fields that disagree", ["Content-Type: text/html"]),
        header("two Content-Length fields that disagree", ["Content-Length: 3", "Content-Length: 9999"]),
        header("a Content-Length that is not a number", ["Content-Length: twelve"]),
        header("a bare CR inside a header value", ["X-Note: one\rtwo"]),
        header("a header folded onto a second line (obs-fold)", ["X-Folded: one", " two"]),
        header("a Date in the year 9999", ["Date: Fri, 31 Dec 9999 23:59:59 GMT"]),
        header("a Date in 1900", ["Date: Mon, 01 Jan 1900 00:00:00 GMT"]),
        HostileMode("token endpoint (client-credentials sign-in): a 200 with line feeds and no carriage returns", .headers,
                    attacks: .clientCredentialsSignIn, expecting: .either) { script in
            script.token = { context in
                let body = HostileAnswers.json(HostileAnswers.tokenFields(context))
                return .raw(Data("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: \(body.count)\nConnection: close\n\n".utf8)
                    + body)
            }
        },
        HostileMode("token endpoint (refresh): a 401 with a Bearer and a Basic challenge", .headers, attacks: .refresh,
                    expecting: .refused, session: .ended(.refreshRefused(status: 401, code: "invalid_client")),
                    check: statusReached(401)) { script in
            script.token = { _ in
                HostileAnswers.raw("HTTP/1.1 401 Unauthorized",
                                   headerLines: ["Content-Type: application/json", #"WWW-Authenticate: Bearer error="invalid_token""#,
                                                 #"WWW-Authenticate: Basic realm="kit""#],
                                   body: HostileAnswers.json(["error": "invalid_client"]))
            }
        },
    ]

    /// A mode whose token endpoint answers a well-formed token answer with `lines` among its
    /// header fields (after `Content-Type: application/json`).
    static func header(_ what: String, _ lines: [String]) -> HostileMode {
        HostileMode("token endpoint (client-credentials sign-in): a 200 with \(what)", .headers,
                    attacks: .clientCredentialsSignIn, expecting: .either) { script in
            script.token = { context in
                HostileAnswers.raw(headerLines: ["Content-Type: application/json"] + lines,
                                   body: HostileAnswers.json(HostileAnswers.tokenFields(context)))
            }
        }
    }
}
