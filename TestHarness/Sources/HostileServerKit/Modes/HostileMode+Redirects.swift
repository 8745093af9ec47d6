import Foundation

/// Redirects from every endpoint: a request that carries a secret (the client's credentials,
/// a token, a device code) never follows one to another origin, loops end, and odd targets
/// neither crash nor hang. (An https→http downgrade needs TLS, which the loopback server has
/// not: the kit's pretended TLS happens below the transport, so a transport's redirect
/// through it cannot be seen.)
extension HostileMode {
    static let redirects: [HostileMode] = [
        redirect("token endpoint (client-credentials sign-in): 307 to another origin (the Basic credentials would follow)",
                 .clientCredentialsSignIn) { $0.token = toTheOtherOrigin(307) },
        redirect("token endpoint (client-credentials sign-in, client_secret_post): 307 to another origin (the secret in the body would follow)",
                 .clientCredentialsSignIn) { script in
            script.clientAuthentication = "client_secret_post"
            script.token = toTheOtherOrigin(307)
        },
        redirect("token endpoint (client-credentials sign-in): 303 to another origin (a GET with the Basic credentials would follow)",
                 .clientCredentialsSignIn) { $0.token = toTheOtherOrigin(303) },
        redirect("token endpoint (refresh): 308 to another origin (the refresh token would follow)", .refresh) {
            $0.token = toTheOtherOrigin(308)
        },
        redirect("token endpoint (client-credentials sign-in): 307 to localhost, another name for the same server", .clientCredentialsSignIn,
                 check: { outcome in
                     let renamed = outcome.exchanges.filter { $0.request.header("Host")?.hasPrefix("localhost") == true }
                     return renamed.isEmpty ? nil : "\(renamed.count) request(s) followed the redirect to localhost with the credentials"
                 }) { script in
            script.token = { context in
                context.request.header("Host")?.hasPrefix("localhost") == true ? HostileAnswers.token(context)
                    : .respond(status: 307, headers: ["Location": "http://localhost:" + (context.origin.split(separator: ":").last ?? "")
                                                                    + context.issuerPath + "/token"])
            }
        },
        redirect("token endpoint (client-credentials sign-in): 307 to itself, again and again", .clientCredentialsSignIn) { script in
            script.token = { context in .respond(status: 307, headers: ["Location": context.endpoint("token")]) }
        },
        redirect("token endpoint (client-credentials sign-in): 307 to file:///etc/passwd", .clientCredentialsSignIn) { script in
            script.token = { _ in .respond(status: 307, headers: ["Location": "file:///etc/passwd"]) }
        },
        redirect("token endpoint (client-credentials sign-in): 307 to javascript:alert(1)", .clientCredentialsSignIn) { script in
            script.token = { _ in .respond(status: 307, headers: ["Location": "javascript:alert(1)"]) }
        },
        redirect("device authorization endpoint: 307 to another origin (the client's credentials would follow)", .deviceSignIn) {
            $0.deviceAuthorization = toTheOtherOrigin(307)
        },
        redirect("userinfo endpoint: 302 to another origin (the access token would follow)", .userinfo) {
            $0.userinfo = toTheOtherOrigin(302)
        },
        redirect("revocation endpoint: 307 to another origin (the tokens would follow)", .revocation) {
            $0.revocation = toTheOtherOrigin(307)
        },
        redirect("discovery: 302 to another origin whose document names another issuer", .discovery) { script in
            script.discovery = toTheOtherOrigin(302)
            script.trap = { request in
                .json(200, #"{"issuer":"http://127.0.0.1:1/elsewhere","token_endpoint":"http://127.0.0.1:1/elsewhere/token"}"#)
            }
        },
        redirect("discovery: redirected in a loop", .discovery) { script in
            script.discovery = { context in
                .respond(status: 302, headers: ["Location": context.endpoint(".well-known/openid-configuration")])
            }
        },
    ]

    /// A mode whose redirect should be refused; the other origin must receive nothing.
    static func redirect(_ name: String, _ operation: HostileOperation, check: (@Sendable (HostileOutcome) -> String?)? = nil,
                         script: (inout HostileScript) -> Void) -> HostileMode {
        HostileMode(name, .redirects, attacks: operation, expecting: .refused, check: { outcome in
            let secretCarrying = outcome.trapRequests.filter { $0.method != "GET" || $0.header("Authorization") != nil }
            let trapped = secretCarrying.isEmpty ? nil
                : "the other origin received \(secretCarrying.map { "\($0.method) \($0.target)" }.joined(separator: ", "))"
            return [trapped, check?(outcome)].compactMap { $0 }.first
        }, script: script)
    }

    /// A redirect with `status` to the same path on the other origin.
    static func toTheOtherOrigin(_ status: Int) -> HostileScript.Answer {
        { context in .respond(status: status, headers: ["Location": context.trapBaseURL + context.request.target]) }
    }
}
