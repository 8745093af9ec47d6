import Foundation

/// A redirect a transport refused to follow because it led a request that carries a
/// credential to another origin, any request from https to plain http, any request to a
/// port outside 1–65535, or a request carrying a DPoP proof anywhere, its own origin included
/// (see ``RedirectPolicy``): the `underlying` error of a ``TransportError`` of kind
/// `.redirectRefused` (made by ``TransportError/redirectRefused(from:to:)``).
///
/// It names both origins (scheme, host and port) and nothing of the request: no path,
/// query, header or body.
///
package struct CrossOriginRedirect: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The origin of the request, for example `https://api.example.com:443`.
    package let from: String
    /// The origin the server redirected it to.
    package let to: String
    /// Whether the request carried a `DPoP` header, which follows no redirect.
    let carriesProof: Bool

    /// Creates a refusal of a request without a DPoP proof.
    package init(from: String, to: String) {
        self.init(from: from, to: to, carriesProof: false)
    }

    init(from: String, to: String, carriesProof: Bool) {
        self.from = from
        self.to = to
        self.carriesProof = carriesProof
    }

    /// For example `refused a redirect from https://api.example.com:443 to https://evil.example:443: …`.
    package var description: String {
        if from.hasPrefix("https://") && to.hasPrefix("http://") {
            return "refused a redirect from \(from) to \(to): a redirect from https to plain http is never followed"
        }
        if let port = to.split(separator: ":").last.flatMap({ Int($0) }), !(1...65_535).contains(port) {
            return "refused a redirect from \(from) to \(to): its port is not within 1–65535"
        }
        if carriesProof {
            return "refused a redirect from \(from) to \(to): the request carries a DPoP proof, which names one URL, so it follows no redirect"
        }
        return "refused a redirect from \(from) to \(to): the request carries a credential (a secret header or a body), which is never sent to another origin"
    }

    /// The description.
    package var errorDescription: String? { description }
}
