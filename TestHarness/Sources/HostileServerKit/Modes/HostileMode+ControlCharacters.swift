import Foundation

/// Server-chosen text holding terminal escape sequences and bidirectional overrides: none of
/// it reaches an error, a record, or what the front end shows, as the server wrote it.
extension HostileMode {
    /// OSC 52: writes the terminal's clipboard.
    static let clipboardWrite = "\u{1B}]52;c;cHduZWQ=\u{07}"
    /// CSI 2J and CSI H: clears the screen.
    static let clearScreen = "\u{1B}[2J\u{1B}[H"
    /// OSC 0: sets the window title.
    static let windowTitle = "\u{1B}]0;owned\u{07}"
    /// A right-to-left override and its end.
    static let bidiOverride = "\u{202E}exe.txt\u{202C}"
    /// The C1 control CSI.
    static let c1Sequence = "\u{9B}31m"

    static let controlCharacters: [HostileMode] = [
        control("token endpoint (client-credentials sign-in): error_description writes the clipboard (OSC 52)",
                .clientCredentialsSignIn, .refused) { script in
            script.token = { _ in HostileAnswers.oauthError(400, "invalid_request", "bad request" + clipboardWrite) }
        },
        control("token endpoint (refresh): error_description clears the screen and reverses text", .refresh, .refused,
                session: .ended(.refreshTokenRejected("invalid_grant"))) { script in
            script.token = { _ in HostileAnswers.oauthError(400, "invalid_grant", clearScreen + "expired" + bidiOverride) }
        },
        control("token endpoint (client-credentials sign-in): the error code itself clears the screen", .clientCredentialsSignIn,
                .refused) { script in
            script.token = { _ in HostileAnswers.oauthError(400, "invalid" + clearScreen + "client", "no") }
        },
        control("token endpoint (client-credentials sign-in): a 500 text body sets the window title and writes the clipboard",
                .clientCredentialsSignIn, .refused) { script in
            script.token = { _ in
                .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Data(("oops" + windowTitle + clipboardWrite).utf8))
            }
        },
        control("token endpoint (client-credentials sign-in): token_type holds an escape sequence", .clientCredentialsSignIn,
                .refused) { script in
            script.token = { context in
                var fields = HostileAnswers.tokenFields(context)
                fields["token_type"] = "Bearer" + clearScreen
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        control("userinfo endpoint: a 401 challenge's error_description writes the clipboard", .userinfo, .refused) { script in
            script.userinfo = { _ in
                HostileAnswers.raw("HTTP/1.1 401 Unauthorized",
                                   headerLines: [#"WWW-Authenticate: Bearer error="invalid_token", error_description="expired"#
                                       + clipboardWrite + #"""#],
                                   body: Data())
            }
        },
        control("device authorization endpoint: user_code writes the clipboard", .deviceSignIn, .either) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["user_code"] = "WDJB" + clipboardWrite + "MJHT"
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        control("device authorization endpoint: verification_uri holds an escape sequence and an override", .deviceSignIn,
                .either) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["verification_uri"] = "https://auth.example.com/device" + windowTitle + bidiOverride
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        control("device authorization endpoint: a 400 error_description with a C1 control sequence", .deviceSignIn,
                .refused) { script in
            script.deviceAuthorization = { _ in HostileAnswers.oauthError(400, "invalid_client", "unknown" + c1Sequence + " client") }
        },
        control("token endpoint (device sign-in): access_denied whose error_description reverses text", .deviceSignIn,
                .refused) { script in
            script.token = { _ in HostileAnswers.oauthError(400, "access_denied", "declined by " + bidiOverride) }
        },
        control("userinfo endpoint (device sign-in): sub writes the clipboard", .deviceSignIn, .either) { script in
            script.userinfo = { _ in .json(200, HostileAnswers.jsonText(["sub": "alice" + clipboardWrite])) }
        },
        control("discovery: a 500 text body clears the screen", .discovery, .refused) { script in
            script.discovery = { _ in
                .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Data(("down" + clearScreen).utf8))
            }
        },
    ]

    static func control(_ name: String, _ operation: HostileOperation, _ result: Result, session: Session = .byOperation,
                        script: (inout HostileScript) -> Void) -> HostileMode {
        HostileMode(name, .controlCharacters, attacks: operation, expecting: result, session: session, script: script)
    }
}
