import Foundation

/// Token types and tokens the SDK must not use as Bearer tokens (RFC 6749 §7.1: a client
/// does not use a token whose type it does not understand; a token with a line break would
/// forge a header wherever it is pasted): refused, and never stored.
extension HostileMode {
    static let tokens: [HostileMode] = [
        tokenType("DPoP", .clientCredentialsSignIn, .refused),
        tokenType("mac", .clientCredentialsSignIn, .refused),
        tokenType("N_A", .clientCredentialsSignIn, .refused),
        tokenType("empty", .clientCredentialsSignIn, .refused, value: ""),
        tokenType("mac", .refresh, .refused, session: .notReplaced),
        tokenType("N_A", .deviceSignIn, .refused),
        tokenType("bearer, in lower case (RFC 6749 §5.1: case-insensitive)", .clientCredentialsSignIn, .succeeds, value: "bearer"),
        HostileMode("token endpoint (client-credentials sign-in): no token_type", .tokens, attacks: .clientCredentialsSignIn,
                    expecting: .either) { script in
            script.token = { _ in HostileAnswers.ok(HostileAnswers.json(["access_token": HostileSecrets.accessToken, "expires_in": 3600])) }
        },
        accessToken("a carriage return", "AT.cr\rX-Injected: 1", .clientCredentialsSignIn),
        accessToken("a line feed", "AT.lf\nX-Injected: 1", .clientCredentialsSignIn),
        accessToken("a NUL", "AT.nul\u{0}tail", .clientCredentialsSignIn),
        accessToken("a space", "AT.sp tail", .clientCredentialsSignIn),
        accessToken("a line feed", "AT.lf\nX-Injected: 1", .refresh, session: .notReplaced),
        HostileMode("token endpoint (client-credentials sign-in): the access token is a number", .tokens,
                    attacks: .clientCredentialsSignIn, expecting: .refused) { script in
            script.token = { _ in HostileAnswers.ok(#"{"access_token":12345,"token_type":"Bearer","expires_in":3600}"#) }
        },
        HostileMode("token endpoint (client-credentials sign-in): an access token of 1 MiB", .tokens,
                    attacks: .clientCredentialsSignIn, expecting: .either) { script in
            script.token = { _ in
                HostileAnswers.ok(HostileAnswers.json(["access_token": "AT." + String(repeating: "k", count: 1_048_576),
                                                       "token_type": "Bearer", "expires_in": 3600]))
            }
        },
        HostileMode("token endpoint (refresh): the rotated refresh token holds a line feed", .tokens, attacks: .refresh,
                    expecting: .either) { script in
            script.token = { context in
                var fields = HostileAnswers.tokenFields(context)
                fields["refresh_token"] = "RT.lf\nX-Injected: 1"
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
    ]

    /// A mode whose token answer's `token_type` is `value` (`what` by default).
    static func tokenType(_ what: String, _ operation: HostileOperation, _ result: Result, value: String? = nil,
                          session: Session = .byOperation) -> HostileMode {
        HostileMode("token endpoint (\(operation)): token_type \(what)", .tokens, attacks: operation, expecting: result,
                    session: session) { script in
            script.token = { context in
                var fields = HostileAnswers.tokenFields(context)
                fields["token_type"] = value ?? what
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        }
    }

    /// A mode whose access token holds `what`.
    static func accessToken(_ what: String, _ token: String, _ operation: HostileOperation,
                            session: Session = .byOperation) -> HostileMode {
        HostileMode("token endpoint (\(operation)): an access token holding \(what)", .tokens, attacks: operation,
                    expecting: .refused, session: session) { script in
            script.token = { context in
                var fields = HostileAnswers.tokenFields(context)
                fields["access_token"] = token
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        }
    }
}
