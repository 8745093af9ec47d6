import Foundation

/// Servers that answer late, slowly, or never: every operation ends within the transport's
/// timeout and a margin, and a refresh that timed out keeps the session.
extension HostileMode {
    static let slowAndSilent: [HostileMode] = [
        slow("token endpoint (client-credentials sign-in): never answers", .clientCredentialsSignIn) { $0.token = silent },
        slow("token endpoint (refresh): never answers", .refresh) { $0.token = silent },
        slow("token endpoint (client-credentials sign-in): a byte every 200 ms", .clientCredentialsSignIn) { script in
            script.token = { _ in .stream(status: 200, chunk: Data(" ".utf8), interval: 0.2) }
        },
        slow("token endpoint (client-credentials sign-in): its head, then silence", .clientCredentialsSignIn) { script in
            script.token = { _ in .stream(status: 200, announcedLength: 100, chunk: Data("{".utf8), interval: 30, count: 1) }
        },
        slow("discovery: never answers", .discovery) { $0.discovery = silent },
        slow("device authorization endpoint: never answers", .deviceSignIn) { $0.deviceAuthorization = silent },
        slow("userinfo endpoint: never answers", .userinfo) { $0.userinfo = silent },
        // Sign-out revokes the refresh token, then the access token: two timeouts.
        slow("revocation endpoint: never answers", .revocation, requests: 2) { $0.revocation = silent },
        HostileMode("token endpoint (client-credentials sign-in): drops the connection without a word", .slowAndSilent,
                    attacks: .clientCredentialsSignIn, expecting: .refused) { $0.token = { _ in .dropConnection } },
        HostileMode("token endpoint (refresh): drops the connection without a word", .slowAndSilent,
                    attacks: .refresh, expecting: .refused) { $0.token = { _ in .dropConnection } },
        HostileMode("token endpoint (client-credentials sign-in): answers after a second, within the timeout", .slowAndSilent,
                    attacks: .clientCredentialsSignIn, expecting: .succeeds) { script in
            script.token = { context in .delayed(1, HostileAnswers.token(context)) }
        },
    ]

    /// Keeps the connection open, answering nothing, for longer than any bound.
    static let silent: HostileScript.Answer = { _ in .silent(upTo: 30) }

    /// A mode whose server is slow or silent: the operation fails within the slow bound.
    static func slow(_ name: String, _ operation: HostileOperation, requests: Int = 1,
                     script: (inout HostileScript) -> Void) -> HostileMode {
        HostileMode(name, .slowAndSilent, attacks: operation, expecting: .refused, timing: .slow(requests: requests), script: script)
    }
}
