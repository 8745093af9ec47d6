import Foundation

/// Discovery documents that would send the client's secret somewhere it should not go, or
/// that are no document at all: refused before anything is sent to the endpoints they name.
extension HostileMode {
    static let discovery: [HostileMode] = [
        HostileMode("discovery (https issuer): endpoints on plain http at 192.0.2.1", .discovery, attacks: .discovery,
                    expecting: .refused) { script in
            script.pretendsTLS = true
            script.discovery = offLoopbackEndpoints
        },
        HostileMode("discovery (http issuer on loopback): endpoints on plain http at 192.0.2.1", .discovery, attacks: .discovery,
                    expecting: .refused) { script in
            script.discovery = offLoopbackEndpoints
        },
        HostileMode("discovery: a token endpoint on the other origin over plain http, for an https issuer", .discovery,
                    attacks: .discovery, expecting: .refused) { script in
            script.pretendsTLS = true
            script.discovery = { context in
                var document = HostileAnswers.discoveryDocument(context)
                document["token_endpoint"] = context.trapBaseURL + "/token"
                return HostileAnswers.ok(HostileAnswers.json(document))
            }
        },
        endpoint("javascript:alert(1)"),
        endpoint("file:///etc/passwd"),
        HostileMode("discovery: a document naming another issuer", .discovery, attacks: .discovery, expecting: .refused) { script in
            script.discovery = { context in
                var document = HostileAnswers.discoveryDocument(context)
                document["issuer"] = "http://127.0.0.1:1/other"
                return HostileAnswers.ok(HostileAnswers.json(document))
            }
        },
        HostileMode("discovery: a 200 body that is not JSON", .discovery, attacks: .discovery, expecting: .refused) { script in
            script.discovery = { _ in HostileAnswers.ok("<html>not a document</html>", contentType: "text/html") }
        },
        HostileMode("discovery: a document nested 600 deep", .discovery, attacks: .discovery, expecting: .refused) { script in
            script.discovery = { context in HostileAnswers.ok(nested(HostileAnswers.discoveryDocument(context), depth: 600)) }
        },
        HostileMode("discovery: a document of 16 MiB + 1 byte", .discovery, attacks: .discovery, expecting: .refused,
                    overTheSizeLimit: true) { script in
            script.discovery = { context in HostileAnswers.ok(oversized(HostileAnswers.discoveryDocument(context))) }
        },
        HostileMode("discovery (https issuer): a document whose every endpoint is https, served well", .discovery,
                    attacks: .discovery, expecting: .succeeds) { script in
            script.pretendsTLS = true
        },
    ]

    /// A document naming `http://192.0.2.1` (a documentation address, never reached) endpoints.
    static let offLoopbackEndpoints: HostileScript.Answer = { context in
        var document = HostileAnswers.discoveryDocument(context)
        for name in ["token_endpoint", "device_authorization_endpoint", "userinfo_endpoint", "revocation_endpoint"] {
            document[name] = "http://192.0.2.1\(context.issuerPath)/" + name.replacingOccurrences(of: "_endpoint", with: "")
        }
        return HostileAnswers.ok(HostileAnswers.json(document))
    }

    /// A document whose token endpoint is `url`.
    static func endpoint(_ url: String) -> HostileMode {
        HostileMode("discovery: the token endpoint is \(url)", .discovery, attacks: .discovery, expecting: .refused) { script in
            script.discovery = { context in
                var document = HostileAnswers.discoveryDocument(context)
                document["token_endpoint"] = url
                return HostileAnswers.ok(HostileAnswers.json(document))
            }
        }
    }
}
