import Foundation

/// Numbers no server should send: lifetimes, intervals, waits, ports and lengths out of any
/// range. Nothing crashes, no wait outlives what it waits for, no expiry is stored that a
/// clock cannot print, and no request goes to a port a socket cannot have.
extension HostileMode {
    static let absurdNumbers: [HostileMode] = [
        lifetime("1e300", "1e300"),
        lifetime("-1", "-1"),
        lifetime("the string NaN", #""NaN""#),
        lifetime("2^63", "9223372036854775808"),
        lifetime("Int64.max", "9223372036854775807"),
        lifetime("of 400 digits", "1" + String(repeating: "0", count: 400)),
        HostileMode("token endpoint (client-credentials sign-in): a JWT access token expiring in 1e19 s, with no expires_in",
                    .absurdNumbers, attacks: .clientCredentialsSignIn, expecting: .either) { script in
            script.token = { _ in HostileAnswers.ok(HostileAnswers.json(["access_token": unsignedJWT(exp: 1e19), "token_type": "Bearer"])) }
        },
        HostileMode("device sign-in: interval 1e9 with a code that lives 5 s", .absurdNumbers, attacks: .deviceSignIn,
                    expecting: .refused, signInClockBound: 5) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["interval"] = 1e9
                fields["expires_in"] = 5
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
            script.token = { _ in HostileAnswers.oauthError(400, "authorization_pending", "waiting") }
        },
        HostileMode("device sign-in: expires_in 1e300 and interval NaN", .absurdNumbers, attacks: .deviceSignIn,
                    expecting: .either) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["interval"] = "NaN"
                fields["expires_in"] = 1e300
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        HostileMode("device sign-in: interval -5 and expires_in -1", .absurdNumbers, attacks: .deviceSignIn,
                    expecting: .either) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["interval"] = -5
                fields["expires_in"] = -1
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        HostileMode("token endpoint (refresh): 503 with Retry-After 1e30", .absurdNumbers, attacks: .refresh,
                    expecting: .refused, check: statusReached(503)) { script in
            script.token = { _ in .respond(status: 503, headers: ["Retry-After": "1e30"]) }
        },
        HostileMode("token endpoint (refresh): 429 with Retry-After of 2^64 seconds", .absurdNumbers, attacks: .refresh,
                    expecting: .refused, check: statusReached(429)) { script in
            script.token = { _ in .respond(status: 429, headers: ["Retry-After": "18446744073709551616"]) }
        },
        HostileMode("token endpoint (client-credentials sign-in): Content-Length 2^64", .absurdNumbers,
                    attacks: .clientCredentialsSignIn, expecting: .refused) { script in
            script.token = { context in
                HostileAnswers.raw(headerLines: ["Content-Type: application/json", "Content-Length: 18446744073709551616"],
                                   body: HostileAnswers.json(HostileAnswers.tokenFields(context)))
            }
        },
        port("99999", 99_999),
        port("0", 0),
        port("-1", -1),
    ]

    /// A mode whose token answer's `expires_in` is the JSON `number`, written as it is.
    static func lifetime(_ what: String, _ number: String) -> HostileMode {
        HostileMode("token endpoint (client-credentials sign-in): expires_in \(what)", .absurdNumbers,
                    attacks: .clientCredentialsSignIn, expecting: .either) { script in
            script.token = { _ in
                HostileAnswers.ok(#"{"access_token":"\#(HostileSecrets.accessToken)","token_type":"Bearer","expires_in":\#(number)}"#)
            }
        }
    }

    /// A mode whose discovery document names a token endpoint on `port`: refused before anything is sent there.
    static func port(_ what: String, _ port: Int) -> HostileMode {
        HostileMode("discovery: the token endpoint on port \(what)", .absurdNumbers, attacks: .discovery,
                    expecting: .refused) { script in
            script.discovery = { context in
                var document = HostileAnswers.discoveryDocument(context)
                document["token_endpoint"] = "http://127.0.0.1:\(port)\(context.issuerPath)/token"
                return HostileAnswers.ok(HostileAnswers.json(document))
            }
        }
    }

    /// An unsigned JWT (`alg` `none`) for `alice` whose `exp` is `exp`.
    static func unsignedJWT(exp: Double) -> String {
        func segment(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return segment(#"{"alg":"none","typ":"JWT"}"#) + "." + segment(#"{"sub":"alice","exp":\#(exp)}"#) + ".c2ln"
    }
}
