import Foundation
import NetworkService
import TokenStore

/// A transport that sends through `wrapped` and keeps what the DPoP conformance tests count:
/// each exchange's endpoint, whether it carried a proof (and the proof, for the test to read
/// its claims; never printed), its `Authorization` scheme, the status, and whether the answer
/// was a nonce challenge (RFC 9449 §8, §9), with the nonce it gave.
final class CountingTransport: HTTPTransport {
    struct Exchange: Sendable {
        let method: HTTPMethod
        /// The request's path (`/api/oidc-dpop/token`…).
        let path: String
        /// The `DPoP` header sent, if any.
        let proof: String?
        /// `DPoP`, `Bearer`, `Basic` or nil.
        let authorizationScheme: String?
        let status: Int
        /// Whether the answer asked for a nonce: 400 or 401 with `use_dpop_nonce` in the body or
        /// the `WWW-Authenticate` challenge.
        let isNonceChallenge: Bool
        /// The answer's `DPoP-Nonce`.
        let nonce: String?

        /// The endpoint: the path's last segment (`token`, `userinfo`, `revoke`…).
        var endpoint: String { path.split(separator: "/").last.map(String.init) ?? "" }
    }

    private let wrapped: any HTTPTransport
    private let kept = LockedValue<[Exchange]>([])

    init(wrapping wrapped: any HTTPTransport = URLSessionTransport(timeout: 20)) {
        self.wrapped = wrapped
    }

    func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        let (data, response) = try await wrapped.send(request)
        let body = String(decoding: data.prefix(2_048), as: UTF8.self)
        let challenge = response.value(forHeaderField: "WWW-Authenticate") ?? ""
        let exchange = Exchange(method: request.method, path: request.url.path, proof: request.value(forHeaderField: "DPoP"),
                                authorizationScheme: request.value(forHeaderField: "Authorization")?
                                    .split(separator: " ").first.map(String.init),
                                status: response.statusCode,
                                isNonceChallenge: [400, 401].contains(response.statusCode)
                                    && (body.contains("use_dpop_nonce") || challenge.contains("use_dpop_nonce")),
                                nonce: response.value(forHeaderField: "DPoP-Nonce"))
        kept.withLock { $0.append(exchange) }
        return (data, response)
    }

    /// Every exchange so far, in order.
    var exchanges: [Exchange] { kept.withLock { $0 } }

    /// The exchanges with `endpoint` (`token`, `userinfo`…).
    func exchanges(with endpoint: String) -> [Exchange] { exchanges.filter { $0.endpoint == endpoint } }

    /// Forgets what was kept.
    func reset() { kept.withLock { $0 = [] } }
}
