import Foundation
@testable import NetworkService

/// Endpoints and proving servers for the tests of DPoP on the wire: requests go to a
/// `TestTransport`, never to a network.
enum DPoPWireFixtures {
    typealias RFC = RFC9449Examples

    /// RFC 9449 Figure 13's request, and a few more.
    enum Resource: Endpoint {
        case protectedResource
        case create(body: [String: String])
        case ping
        case signIn(password: String)

        var method: HTTPMethod {
            switch self {
            case .protectedResource, .ping: .get
            case .create, .signIn: .post
            }
        }

        var path: EndpointPath {
            switch self {
            case .protectedResource: "/protectedresource"
            case .create: "/v1/posts"
            case .ping: "/v1/ping"
            case .signIn: "/v1/auth/sign-in"
            }
        }

        var body: RequestBody {
            switch self {
            case let .create(body): .json(body)
            case let .signIn(password): .json(["password": password])
            default: .none
            }
        }

        var authentication: EndpointAuthentication {
            switch self {
            case .ping, .signIn: .none
            default: .bearer
            }
        }

        var secrets: [String] {
            if case let .signIn(password) = self { return [password] }
            return []
        }
    }

    /// Figure 13's token, bound to the RFC's key.
    static let boundToken = AccessToken(RFC.accessToken.rawValue, scheme: .dpop)

    /// Proofs with the RFC's key and signature, dated Figure 14's `iat`, with `jti`s from
    /// `jtis` in turn (then `jti-N`), and nonces in `nonces`.
    static func proofing(nonces: DPoPNonces = DPoPNonces(), jtis: [String] = ["e1j3V_bKic8-LAEB"],
                         signer: any DPoPSigner = RecordedSigner(signatureOf: RFC.resourceRequestProof)) -> DPoPProofing {
        let counter = TestMutex(0)
        return DPoPProofing(signer: signer, nonces: nonces, now: { Date(timeIntervalSince1970: 1562262618) }, jti: {
            let index = counter.withLock { value -> Int in value += 1; return value - 1 }
            return index < jtis.count ? jtis[index] : "jti-\(index)"
        })
    }

    /// A server at `baseURL` answering through `transport`, proving with `proofing` when given.
    static func server(_ baseURL: String = "https://resource.example.org", transport: TestTransport,
                       proofing: DPoPProofing? = nil, everyRequest: Bool = false) throws -> Server {
        let server = try Server(baseURL: baseURL, transport: transport)
        return proofing.map { server.proving($0, everyRequest: everyRequest) } ?? server
    }

    /// The payload of a request's proof, as JSON members.
    static func payload(of request: HTTPRequest) -> [String: Any]? {
        guard let proof = request.headerFields[DPoPProof.headerName] else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(RFC.payload(of: proof).utf8))) as? [String: Any]
    }

    /// A 400 nonce challenge as a token endpoint sends it (RFC 9449 Figure 20).
    static let tokenEndpointChallenge = TestTransport.Reply.json(
        400, #"{"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}"#,
        headers: ["DPoP-Nonce": RFC.nonce])
    /// A 401 nonce challenge as a resource sends it (RFC 9449 Figure 24).
    static let resourceChallenge = TestTransport.Reply(status: 401, headers: [
        "WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
        "DPoP-Nonce": RFC.nonce,
    ])
}
