import AppRepository
import Foundation
import FuzzSupport
import NetworkService
@testable import OAuthSignIn
import SessionEngine

/// The token-response readers of the engine's presets, each behind its public refresh call, on
/// one reply body (the four share the input's shape, so they share a target): `.appAPI`
/// (`AuthAPI.refresh`), `.oauth2` (`OAuth2TokenClient.refresh`, RFC 6749 §5.1), `.json`
/// (`JSONTokenRefresh` with dotted field names), and OAuthSignIn's token reply (the client
/// credentials grant, whose reader every sign-in flow and the `.oauth2(provider)` refresh share).
/// The first byte picks the status: 200 mostly, else 400 or 401 (the error readers then run on
/// the body). Every `@@` in the body becomes a live token (``planted``), as a server's answer
/// holds one, and the token is also planted at a place the first byte picks.
/// Invariants: a reply gives tokens with a non-empty access token, a refresh token (the
/// rotated one or the one sent), a finite lifetime if any; a failure is a `NetworkError` of
/// kind `.decoding` (200) or `.httpStatus` (400/401) with that status; the refresh token sent
/// never appears in an error's description or message, even when the reply echoes it; and when
/// the status was 2xx, no byte of the body is quoted: the error has no snippet, and neither
/// the planted token nor any part of it appears in any of its texts (issue 33: a successful
/// token answer that is form-encoded, has trailing bytes or nests too deep is still a token
/// answer).
@main enum TokenResponseFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let sentRefreshToken = "rt-SENT-9f86d081884c7d659a2feaa0c55ad015"

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let status = selector < 200 ? 200 : (selector & 1 == 0 ? 400 : 401)
        let body = plant(in: rest, at: Int(selector))
        let transport = ReplyTransport(body: Data(body), status: status)
        let server = try! Server(baseURL: "https://api.example.com", transport: transport)
        let json = JSONTokenRefresh(path: "/auth/refresh", accessTokenKey: "data.tokens.access",
                                    refreshTokenKey: "data.tokens.refresh", expiresInKey: "data.expiresIn")
        let oauth = OAuth2TokenClient(tokenEndpoint: "/o/token/", clientID: "fuzz-client")
        let results: [(String, Result<Tokens, NetworkError>)] = runBlocking {
            let token = sentRefreshToken
            let app = await result { () async throws(NetworkError) in try await AuthAPI.refresh(refreshToken: token, server: server) }
            let oauth2 = await result { () async throws(NetworkError) in try await oauth.refresh(refreshToken: token, server: server) }
            let dotted = await result { () async throws(NetworkError) in try await json.refresh(refreshToken: token, server: server) }
            let provider = OAuthProvider(metadata: metadata, clientID: "fuzz-client", clientSecret: "fuzz-secret", transport: transport)
            let signIn = await result { () async throws(NetworkError) in try await provider.clientCredentialsGrant(scopes: []).tokens }
            return [("appAPI", app), ("oauth2", oauth2), ("json", dotted), ("signIn", signIn)]
        }
        for (preset, outcome) in results {
            switch outcome {
            case let .success(tokens):
                require(status == 200, "\(preset) read tokens from a \(status)")
                require(!tokens.accessToken.rawValue.isEmpty, "\(preset) read an empty access token")
                // The client credentials grant has no refresh token (RFC 6749 §4.4.3).
                require(!tokens.refreshToken.isEmpty || preset == "signIn", "\(preset) read no refresh token")
                if let lifetime = tokens.expiresIn { require(!lifetime.isNaN, "\(preset) read a NaN lifetime") }
            case let .failure(error):
                require(error.kind == (status == 200 ? .decoding : .httpStatus),
                        "\(preset) failed with \(error.kind) on a \(status)")
                require(error.statusCode == status, "\(preset) failed with status \(String(describing: error.statusCode))")
                let texts = [error.description, error.localizedDescription, error.serverMessage ?? "", error.responseSnippet ?? "",
                             String(reflecting: error)]
                for text in texts {
                    require(!text.contains(sentRefreshToken), "\(preset)'s error shows the refresh token: \(text)")
                }
                guard status == 200 else { continue }
                require(error.responseSnippet == nil, "\(preset)'s error on a 200 has a snippet of the body")
                for text in texts {
                    for part in plantedParts where text.contains(part) {
                        require(false, "\(preset)'s error on a 200 quotes the body's token (\(part)): \(text)")
                    }
                }
            }
        }
    }

    /// The live token a successful answer holds: letters and digits only, so every way the SDK
    /// could quote it (raw, escaped, redacted around) leaves one of ``plantedParts`` in the text.
    static let planted = "Kq7Zp2Xw9Rt4Lm6N"
    /// Every 6-character piece of ``planted``.
    static let plantedParts = (0...(planted.count - 6)).map { String(planted.dropFirst($0).prefix(6)) }

    static let metadata = AuthorizationServerMetadata(issuer: URL(string: "https://issuer.example.com")!,
                                                      tokenEndpoint: URL(string: "https://issuer.example.com/token")!)

    /// `bytes` with every `@@` replaced by ``planted``, and ``planted`` inserted at `position`
    /// (modulo the length, so every place can be reached).
    static func plant(in bytes: [UInt8], at position: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + planted.utf8.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "@"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "@") {
                out += planted.utf8
                index += 2
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        let place = position % (out.count + 1)
        out.insert(contentsOf: planted.utf8, at: place)
        return out
    }

    static func result(_ call: () async throws(NetworkError) -> Tokens) async -> Result<Tokens, NetworkError> {
        do { return .success(try await call()) } catch { return .failure(error) }
    }
}
