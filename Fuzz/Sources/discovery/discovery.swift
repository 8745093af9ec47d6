import Foundation
import FuzzSupport
@testable import NetworkService
@testable import OAuthSignIn

/// OAuthSignIn's discovery document reader (`Discovery.parse`: OpenID Connect Discovery 1.0
/// §3, RFC 8414 §2). The first byte picks whether the document came over https or over http
/// from a server on loopback (plain http is allowed nowhere else).
/// Invariants: a document either reads, or fails as `.discoveryDocumentMalformed` naming the
/// document's URL, or as `.insecureURL` naming the field (an http endpoint on a host that is not
/// loopback, a port outside 1–65535); what reads has an http(s) issuer and token endpoint with a
/// host, every endpoint https or http on a loopback host, with a port within 1–65535, and all
/// https when the document came over https; one answer per document.
@main enum DiscoveryFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let secure = selector & 1 == 0
        let url = URL(string: secure ? "https://issuer.example.com/.well-known/openid-configuration"
                                     : "http://127.0.0.1:8080/.well-known/openid-configuration")!
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
                require(scheme == "https" || PlainHTTPRule.isLoopback(host: endpoint.host ?? ""), "plain http to another host: \(endpoint)")
                let port = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)?.port
                require(port.map { (1...65_535).contains($0) } ?? true, "endpoint \(endpoint) with port \(port ?? 0)")
            }
            require((try? Discovery.parse(data, from: url)) == metadata, "two reads of one document differ")
        } catch {
            switch error.kind {
            case .discoveryDocumentMalformed:
                require(error.detail?.hasPrefix(url.absoluteString) == true, "the error does not name the document")
            case .insecureURL:
                require(error.detail?.hasPrefix("The discovery document's `") == true, "the error does not name the field")
            default:
                require(false, "failed with \(error.kind)")
            }
        }
    }
}
