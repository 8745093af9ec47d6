import Foundation

/// Device verification URIs a front end would print or open: only https (http on loopback)
/// reaches it; the sign-in is refused otherwise.
extension HostileMode {
    static let verificationURIs: [HostileMode] = [
        verification("javascript:alert(document.cookie)"),
        verification("file:///etc/passwd"),
        verification("data:text/html,<script>alert(1)</script>"),
        verification("ssh://attacker.example/device"),
        verification("http://192.0.2.1/device", what: "plain http on another host"),
        HostileMode("device authorization endpoint: verification_uri_complete javascript:, verification_uri https", .verificationURIs,
                    attacks: .deviceSignIn, expecting: .either, check: onlySafeVerificationURIsShown) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["verification_uri_complete"] = "javascript:alert(1)"
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
        HostileMode("device authorization endpoint: verification_uri on http://127.0.0.1 (loopback)", .verificationURIs,
                    attacks: .deviceSignIn, expecting: .succeeds, check: onlySafeVerificationURIsShown) { script in
            script.deviceAuthorization = { context in
                var fields = HostileAnswers.deviceFields()
                fields["verification_uri"] = context.endpoint("verify").replacingOccurrences(of: "https://", with: "http://")
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        },
    ]

    /// A mode whose verification URI is `uri`: the sign-in is refused, and the front end never shows it.
    static func verification(_ uri: String, what: String? = nil) -> HostileMode {
        HostileMode("device authorization endpoint: verification_uri \(what ?? uri)", .verificationURIs, attacks: .deviceSignIn,
                    expecting: .refused, check: onlySafeVerificationURIsShown) { script in
            script.deviceAuthorization = { _ in
                var fields = HostileAnswers.deviceFields()
                fields["verification_uri"] = uri
                return HostileAnswers.ok(HostileAnswers.json(fields))
            }
        }
    }

    /// The front end was shown no verification URI but https ones and http ones on loopback.
    static let onlySafeVerificationURIsShown: @Sendable (HostileOutcome) -> String? = { outcome in
        let unsafe = outcome.shownToFrontEnd.filter { $0.source.contains("verification URI") }.filter { shown in
            guard let components = URLComponents(string: shown.text), let scheme = components.scheme?.lowercased() else { return true }
            let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(components.host?.lowercased() ?? "")
            return !(scheme == "https" || (scheme == "http" && loopback))
        }
        return unsafe.isEmpty ? nil : "the front end was shown \(unsafe.map { "\($0.source) \($0.text)" }.joined(separator: ", "))"
    }
}
