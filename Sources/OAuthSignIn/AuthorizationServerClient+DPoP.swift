import Foundation
import NetworkService

// DPoP (RFC 9449) at the authorization server: the proofs of token requests (no `ath`) and
// of userinfo calls (with `ath`), the nonce a challenge asks for, and what an error must not show.

extension AuthorizationServerClient {
    /// A new proof (a new `jti`) of a `method` request to `url`, carrying `accessToken`'s `ath`
    /// when given, and `nonce`, or else the latest nonce `url`'s origin gave.
    /// - Throws: `.invalidRequest` without ``proofing``, for a URL that is not http(s) with a
    ///   host, or when the signer fails; nothing has been sent.
    func proof(_ method: HTTPMethod, _ url: URL, accessToken: AccessToken?, nonce: String? = nil) throws(NetworkError) -> String {
        let path = Self.path(of: url)
        guard let proofing else {
            throw NetworkError(kind: .invalidRequest, method: method, path: path,
                               serverMessage: "the access token is bound to a DPoP key and this session has none to prove with")
        }
        guard let htu = Self.htu(of: url) else {
            throw NetworkError(kind: .invalidRequest, method: method, path: path,
                               serverMessage: "a DPoP proof needs an http or https URL with a host")
        }
        do {
            return try proofing.proof(method: method, htu: htu, origin: RedirectPolicy.origin(of: url),
                                      accessToken: accessToken, nonce: nonce)
        } catch {
            throw NetworkError(kind: .invalidRequest, method: method, path: path,
                               serverMessage: "the DPoP proof could not be signed", underlying: error)
        }
    }

    /// The `Authorization` (and, for a DPoP-bound token, `DPoP`) header fields presenting
    /// `accessToken` on a `method` request to `url`.
    /// - Throws: `.invalidRequest` for a DPoP-bound token without ``proofing``.
    func authorizationFields(_ method: HTTPMethod, _ url: URL, accessToken: AccessToken) throws(NetworkError) -> [String: String] {
        switch accessToken.scheme {
        case .bearer:
            return ["Authorization": "Bearer " + accessToken.rawValue]
        case .dpop:
            return ["Authorization": DPoPProof.authorizationScheme + " " + accessToken.rawValue,
                    DPoPProof.headerName: try proof(method, url, accessToken: accessToken)]
        }
    }

    /// The nonce to send `request` once more with: `response` is a nonce challenge (RFC 9449
    /// §8, §9: 400 or 401, `use_dpop_nonce` as the error code or in a `DPoP` challenge, a
    /// usable `DPoP-Nonce`) to a request that carried a proof. `nil` otherwise.
    func nonceToRetryWith(_ request: HTTPRequest, _ response: HTTPResponse, _ details: ServerErrorDetails?) -> String? {
        guard proofing != nil, request.headerFields[DPoPProof.headerName] != nil else { return nil }
        return DPoPChallenge.nonce(challengedBy: response, errorCode: details?.code)
    }

    /// The DPoP values of one exchange an error must not show: the proof sent, the nonce it
    /// carried (the origin's latest) and the answer's `DPoP-Nonce`, usable or not.
    func dpopValues(of request: HTTPRequest, _ response: HTTPResponse) -> [String] {
        guard let proofing else { return [] }
        return [request.headerFields[DPoPProof.headerName],
                proofing.nonces.nonce(forOrigin: RedirectPolicy.origin(of: request.url)),
                response.value(forHeaderField: DPoPNonces.headerName)].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The `htu` of a request to `url` (RFC 9449 §4.2): the URL exactly as the discovery document
    /// wrote it, its port and the case of its host kept, without query, fragment or user info
    /// (an empty path is `/`). Not normalised as ``/NetworkService/DPoPTarget`` does: glewlwyd
    /// compares `htu` with its own URL byte for byte, port written out (docs/OTHER-SERVERS.md).
    /// `nil` when `url` is not http(s) with a host.
    static func htu(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        var text = url.absoluteString
        if url.user != nil || url.password != nil {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            components.user = nil
            components.password = nil
            guard let written = components.string else { return nil }
            text = written
        }
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<end]) }
        guard let authorityStart = text.range(of: "://")?.upperBound else { return nil }
        if !text[authorityStart...].contains("/") { text += "/" }
        return text
    }
}
