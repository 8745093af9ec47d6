import Foundation

/// Revocation answers at sign-out: the session ends locally whatever the server says, the
/// server's words show no token, and a hostile answer is not taken for a confirmation.
extension HostileMode {
    static let revocation: [HostileMode] = [
        HostileMode("revocation endpoint: a 500 text body echoing the request body", .revocation, attacks: .revocation,
                    expecting: .refused) { script in
            script.revocation = { context in
                .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Data("cannot: ".utf8) + context.request.body)
            }
        },
        HostileMode("revocation endpoint: a 200 body of 16 MiB + 1 byte", .revocation, attacks: .revocation, expecting: .refused,
                    overTheSizeLimit: true) { script in
            script.revocation = { _ in HostileAnswers.ok(oversized(["revoked": true])) }
        },
        HostileMode("revocation endpoint: 200 with a body echoing the token (RFC 7009: any body)", .revocation,
                    attacks: .revocation, expecting: .succeeds) { script in
            script.revocation = { context in HostileAnswers.ok("revoked " + (context.form["token"] ?? ""), contentType: "text/plain") }
        },
        HostileMode("revocation endpoint: 503 with Retry-After 1e30", .revocation, attacks: .revocation, expecting: .refused) { script in
            script.revocation = { _ in .respond(status: 503, headers: ["Retry-After": "1e30"]) }
        },
    ]
}
