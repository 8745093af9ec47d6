import Foundation
import FuzzSupport
@testable import OAuthSignIn

/// OAuthSignIn's discovery document reader (`Discovery.parse`: OpenID Connect Discovery 1.0
/// §3, RFC 8414 §2). The first byte picks whether the document came over https or http.
/// Invariants: a document either reads or fails as `.discoveryDocumentMalformed` naming the
/// document's URL; what reads has an http(s) issuer and token endpoint with a host, every
/// endpoint absolute http(s), and all https when the document came over https; lists are the
/// document's strings; one answer per document.
@main enum DiscoveryFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let secure = selector & 1 == 0
        let url = URL(string: (secure ? "https" : "http") + "://issuer.example.com/.well-known/openid-configuration")!
        let data = Data(rest)
        do {
            let metadata = try Discovery.parse(data, from: url)
            let endpoints = [metadata.issuer, metadata.tokenEndpoint] + [
                metadata.authorizationEndpoint, metadata.deviceAuthorizationEndpoint, metadata.revocationEndpoint,
                metadata.userinfoEndpoint, metadata.endSessionEndpoint, metadata.jwksURI,
            ].compactMap { $0 }
            for endpoint in endpoints {
                let scheme = endpoint.scheme?.lowercased()
                require(scheme == "https" || (!secure && scheme == "http"), "endpoint \(endpoint) with scheme \(scheme ?? "none")")
                require(endpoint.host?.isEmpty == false, "endpoint \(endpoint) without a host")
            }
            require((try? Discovery.parse(data, from: url)) == metadata, "two reads of one document differ")
        } catch {
            require(error.kind == .discoveryDocumentMalformed, "failed with \(error.kind)")
            require(error.detail?.hasPrefix(url.absoluteString) == true, "the error does not name the document")
        }
    }
}
