import Foundation
import NetworkService

/// Error answers that echo a secret the client sent, in each encoding it could come back in:
/// the error shows none of them.
extension HostileMode {
    /// An encoding a server may echo a secret in.
    struct Echo: Sendable {
        let name: String
        /// `client_secret_post` or `client_secret_basic`: how the secret goes out, so that the
        /// echo is of what was sent.
        let clientAuthentication: String
        let encode: @Sendable (HostileContext) -> String
    }

    static let echoes: [Echo] = [
        Echo(name: "as it is", clientAuthentication: "client_secret_post") { $0.receivedClientSecret ?? "" },
        Echo(name: "percent-encoded (%20 for a space)", clientAuthentication: "client_secret_post") {
            SDKFormEncoding.encode($0.receivedClientSecret ?? "", spaceAsPlus: false)
        },
        Echo(name: "form-encoded (+ for a space), as it was sent", clientAuthentication: "client_secret_post") {
            $0.receivedClientSecretOnTheWire ?? ""
        },
        Echo(name: "as the Basic credentials' base64, as it was sent", clientAuthentication: "client_secret_basic") {
            $0.receivedClientSecretOnTheWire ?? ""
        },
        Echo(name: "JSON-escaped (\\/)", clientAuthentication: "client_secret_post") {
            HostileSecrets.jsonEscaped($0.receivedClientSecret ?? "")
        },
    ]

    static let echoedSecrets: [HostileMode] = echoes.flatMap { echo in
        [HostileMode("token endpoint (client-credentials sign-in): a 400 error_description echoes the client secret \(echo.name)",
                     .echoedSecrets, attacks: .clientCredentialsSignIn, expecting: .refused) { script in
            script.clientAuthentication = echo.clientAuthentication
            script.token = { context in HostileAnswers.oauthError(400, "invalid_client", "unknown secret " + echo.encode(context)) }
        },
         HostileMode("token endpoint (client-credentials sign-in): a 500 text body echoes the client secret \(echo.name)",
                     .echoedSecrets, attacks: .clientCredentialsSignIn, expecting: .refused) { script in
            script.clientAuthentication = echo.clientAuthentication
            script.token = { context in
                .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Data("failed for \(echo.encode(context))".utf8))
            }
        }]
    } + [
        HostileMode("token endpoint (client-credentials sign-in): a 401 Bearer challenge echoes the client secret form-encoded",
                    .echoedSecrets, attacks: .clientCredentialsSignIn, expecting: .refused) { script in
            script.clientAuthentication = "client_secret_post"
            script.token = { context in
                HostileAnswers.raw("HTTP/1.1 401 Unauthorized",
                                   headerLines: [#"WWW-Authenticate: Bearer error="invalid_client", error_description="bad "#
                                       + (context.receivedClientSecretOnTheWire ?? "") + #"""#],
                                   body: Data())
            }
        },
        HostileMode("token endpoint (refresh): invalid_grant echoes the refresh token form-encoded", .echoedSecrets,
                    attacks: .refresh, expecting: .refused, session: .ended(.refreshTokenRejected("invalid_grant"))) { script in
            script.token = { context in
                HostileAnswers.oauthError(400, "invalid_grant", "revoked: " + form(context.form["refresh_token"] ?? ""))
            }
        },
        HostileMode("token endpoint (refresh): a 500 text body echoes the request body", .echoedSecrets,
                    attacks: .refresh, expecting: .refused) { script in
            script.token = { context in
                .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Data("bad: ".utf8) + context.request.body)
            }
        },
        HostileMode("token endpoint (device sign-in): access_denied echoes the device code form-encoded", .echoedSecrets,
                    attacks: .deviceSignIn, expecting: .refused) { script in
            script.token = { context in
                HostileAnswers.oauthError(400, "access_denied", "denied " + form(context.form["device_code"] ?? ""))
            }
        },
        HostileMode("device authorization endpoint: a 400 echoes the client secret form-encoded", .echoedSecrets,
                    attacks: .deviceSignIn, expecting: .refused) { script in
            script.clientAuthentication = "client_secret_post"
            script.deviceAuthorization = { context in
                HostileAnswers.oauthError(400, "invalid_client", "bad " + (context.receivedClientSecretOnTheWire ?? ""))
            }
        },
        HostileMode("revocation endpoint: a 400 echoes the token form-encoded", .echoedSecrets,
                    attacks: .revocation, expecting: .refused) { script in
            script.revocation = { context in
                HostileAnswers.oauthError(400, "invalid_request", "cannot revoke " + form(context.form["token"] ?? ""))
            }
        },
        HostileMode("userinfo endpoint: a 401 challenge echoes the access token percent-encoded", .echoedSecrets,
                    attacks: .userinfo, expecting: .refused) { script in
            script.userinfo = { context in
                HostileAnswers.raw("HTTP/1.1 401 Unauthorized",
                                   headerLines: [#"WWW-Authenticate: Bearer error="invalid_token", error_description="expired "#
                                       + SDKFormEncoding.encode(context.bearerToken ?? "", spaceAsPlus: false) + #"""#],
                                   body: Data())
            }
        },
        HostileMode("userinfo endpoint: a 200 body that is not JSON echoes the access token", .echoedSecrets,
                    attacks: .userinfo, expecting: .refused) { script in
            script.userinfo = { context in
                HostileAnswers.ok("sub=alice&access_token=" + form(context.bearerToken ?? ""), contentType: "application/x-www-form-urlencoded")
            }
        },
    ]
}
