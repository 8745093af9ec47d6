import Foundation
import NetworkService

/// Successful answers whose bodies are not what they should be: no byte of a 2xx body may
/// appear in an error (it is a live token answer, whatever its shape), and a body over the
/// limit is refused by the limit.
extension HostileMode {
    static let bodies: [HostileMode] = [
        tokenBody("a 200 body form-encoded (access_token=…&token_type=Bearer)", .clientCredentialsSignIn, .refused) { context in
            HostileAnswers.ok(formEncodedTokenAnswer(context), contentType: "application/x-www-form-urlencoded")
        },
        tokenBody("a 200 body form-encoded (access_token=…&token_type=Bearer)", .refresh, .refused) { context in
            HostileAnswers.ok(formEncodedTokenAnswer(context), contentType: "application/x-www-form-urlencoded")
        },
        HostileMode("device authorization endpoint: a 200 body form-encoded (device_code=…&user_code=…)", .bodies,
                    attacks: .deviceSignIn, expecting: .refused) { script in
            script.deviceAuthorization = { _ in
                HostileAnswers.ok("device_code=\(form(HostileSecrets.deviceCode))&user_code=\(HostileSecrets.userCode)"
                    + "&verification_uri=https%3A%2F%2Fauth.example.com%2Fdevice&expires_in=600&interval=1",
                    contentType: "application/x-www-form-urlencoded")
            }
        },
        tokenBody("a 200 JSON body with trailing bytes", .clientCredentialsSignIn, .refused) { context in
            HostileAnswers.ok(HostileAnswers.jsonText(HostileAnswers.tokenFields(context)) + #" {"and":"more"}"#)
        },
        tokenBody("a 200 JSON body with trailing bytes", .refresh, .refused) { context in
            HostileAnswers.ok(HostileAnswers.jsonText(HostileAnswers.tokenFields(context)) + #"garbage"#)
        },
        HostileMode("device authorization endpoint: a 200 JSON body with trailing bytes", .bodies,
                    attacks: .deviceSignIn, expecting: .refused) { script in
            script.deviceAuthorization = { _ in HostileAnswers.ok(HostileAnswers.jsonText(HostileAnswers.deviceFields()) + "}") }
        },
        tokenBody("a 200 JSON body nested 600 deep", .clientCredentialsSignIn, .refused) { context in
            HostileAnswers.ok(nested(HostileAnswers.tokenFields(context), depth: 600))
        },
        tokenBody("a 200 JSON body nested 600 deep", .refresh, .refused) { context in
            HostileAnswers.ok(nested(HostileAnswers.tokenFields(context), depth: 600))
        },
        HostileMode("device authorization endpoint: a 200 JSON body nested 600 deep", .bodies,
                    attacks: .deviceSignIn, expecting: .refused) { script in
            script.deviceAuthorization = { _ in HostileAnswers.ok(nested(HostileAnswers.deviceFields(), depth: 600)) }
        },
        tokenBody("an empty 200 body", .clientCredentialsSignIn, .refused) { _ in HostileAnswers.ok(Data()) },
        tokenBody("a 200 JSON array holding the token answer", .clientCredentialsSignIn, .refused) { context in
            HostileAnswers.ok("[" + HostileAnswers.jsonText(HostileAnswers.tokenFields(context)) + "]")
        },
        tokenBody("a 200 JSON null", .clientCredentialsSignIn, .refused) { _ in HostileAnswers.ok("null") },
        tokenBody("a 200 body with invalid UTF-8 in the access token", .clientCredentialsSignIn, .refused) { _ in
            HostileAnswers.ok(Data(#"{"token_type":"Bearer","expires_in":3600,"access_token":"\#(HostileSecrets.accessToken)"#.utf8)
                + Data([0xFF, 0xFE]) + Data(#""}"#.utf8))
        },
        tokenBody("a 200 JSON body behind a UTF-8 byte-order mark", .clientCredentialsSignIn, .either) { context in
            HostileAnswers.ok(Data([0xEF, 0xBB, 0xBF]) + HostileAnswers.json(HostileAnswers.tokenFields(context)))
        },
        tokenBody("a 200 JSON body in UTF-16", .clientCredentialsSignIn, .either) { context in
            HostileAnswers.ok(HostileAnswers.jsonText(HostileAnswers.tokenFields(context)).data(using: .utf16LittleEndian) ?? Data(),
                              contentType: "application/json; charset=utf-16le")
        },
        tokenBody("a 200 body labelled gzip that is not", .clientCredentialsSignIn, .either) { context in
            .respond(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                     body: HostileAnswers.json(HostileAnswers.tokenFields(context)))
        },
        HostileMode("token endpoint (client-credentials sign-in): a 200 body of 16 MiB + 1 byte", .bodies, attacks: .clientCredentialsSignIn,
                    expecting: .refused, overTheSizeLimit: true) { script in
            script.token = { context in HostileAnswers.ok(oversized(HostileAnswers.tokenFields(context))) }
        },
        HostileMode("token endpoint (refresh): a 200 body of 16 MiB + 1 byte", .bodies, attacks: .refresh,
                    expecting: .refused, overTheSizeLimit: true) { script in
            script.token = { context in HostileAnswers.ok(oversized(HostileAnswers.tokenFields(context))) }
        },
        HostileMode("token endpoint (client-credentials sign-in): a chunked 200 body that never ends", .bodies, attacks: .clientCredentialsSignIn,
                    expecting: .refused, timing: .slow(), overTheSizeLimit: true) { script in
            // 16 KiB a millisecond, as the transports' own conformance scenario sends it.
            script.token = { _ in
                .stream(status: 200, chunk: Data(#"{"access_token":"\#(HostileSecrets.accessToken)","pad":""#.utf8)
                    + Data(repeating: UInt8(ascii: "a"), count: 16_384), interval: 0.001)
            }
        },
    ]

    /// A mode whose token endpoint answers with `answer`.
    static func tokenBody(_ what: String, _ operation: HostileOperation, _ result: Result,
                          _ answer: @escaping HostileScript.Answer) -> HostileMode {
        HostileMode("token endpoint (\(operation)): \(what)", .bodies, attacks: operation, expecting: result) { $0.token = answer }
    }

    /// The token answer form-encoded, as some providers send it.
    static func formEncodedTokenAnswer(_ context: HostileContext) -> String {
        var text = "access_token=\(form(HostileSecrets.accessToken))&token_type=Bearer&expires_in=3600"
        if context.grantType != "client_credentials" { text += "&refresh_token=\(form(HostileSecrets.refreshToken))" }
        return text
    }

    /// `fields` as JSON, with a field holding arrays nested `depth` deep.
    static func nested(_ fields: [String: any Sendable], depth: Int) -> String {
        let object = HostileAnswers.jsonText(fields)
        return String(object.dropLast()) + #","deep":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
    }

    /// `fields` as JSON padded to 16 MiB + 1 byte.
    static func oversized(_ fields: [String: any Sendable]) -> Data {
        let head = String(HostileAnswers.jsonText(fields).dropLast()) + #","pad":""#
        let size = 16 * 1_048_576 + 1
        return Data(head.utf8) + Data(repeating: UInt8(ascii: "a"), count: size - head.utf8.count - 2) + Data(#""}"#.utf8)
    }

    /// `text` form-encoded.
    static func form(_ text: String) -> String { SDKFormEncoding.encode(text, spaceAsPlus: true) }
}
