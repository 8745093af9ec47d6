import AppRepository
import Foundation
import FuzzSupport
import NetworkService
import SessionEngine

/// The token-response readers of the engine's presets, each behind its public refresh call, on
/// one reply body (the three share the input's shape, so they share a target): `.appAPI`
/// (`AuthAPI.refresh`), `.oauth2` (`OAuth2Client.refresh`, RFC 6749 §5.1) and `.json`
/// (`JSONTokenRefresh` with dotted field names). The first byte picks the status: 200 mostly,
/// else 400 or 401 (the error readers then run on the body).
/// Invariants: a reply gives tokens with a non-empty access token, a refresh token (the
/// rotated one or the one sent), a finite lifetime if any; a failure is a `NetworkError` of
/// kind `.decoding` (200) or `.httpStatus` (400/401) with that status; the refresh token sent
/// never appears in an error's description or message, even when the reply echoes it.
@main enum TokenResponseFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let sentRefreshToken = "rt-SENT-9f86d081884c7d659a2feaa0c55ad015"

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let status = selector < 200 ? 200 : (selector & 1 == 0 ? 400 : 401)
        let transport = ReplyTransport(body: Data(rest), status: status)
        let server = try! Server(baseURL: "https://api.example.com", transport: transport)
        let json = JSONTokenRefresh(path: "/auth/refresh", accessTokenKey: "data.tokens.access",
                                    refreshTokenKey: "data.tokens.refresh", expiresInKey: "data.expiresIn")
        let oauth = OAuth2Client(tokenEndpoint: "/o/token/", clientID: "fuzz-client")
        let results: [(String, Result<Tokens, NetworkError>)] = runBlocking {
            let token = sentRefreshToken
            let app = await result { () async throws(NetworkError) in try await AuthAPI.refresh(refreshToken: token, server: server) }
            let oauth2 = await result { () async throws(NetworkError) in try await oauth.refresh(refreshToken: token, server: server) }
            let dotted = await result { () async throws(NetworkError) in try await json.refresh(refreshToken: token, server: server) }
            return [("appAPI", app), ("oauth2", oauth2), ("json", dotted)]
        }
        for (preset, outcome) in results {
            switch outcome {
            case let .success(tokens):
                require(status == 200, "\(preset) read tokens from a \(status)")
                require(!tokens.accessToken.rawValue.isEmpty, "\(preset) read an empty access token")
                require(!tokens.refreshToken.isEmpty, "\(preset) read no refresh token")
                if let lifetime = tokens.expiresIn { require(!lifetime.isNaN, "\(preset) read a NaN lifetime") }
            case let .failure(error):
                require(error.kind == (status == 200 ? .decoding : .httpStatus),
                        "\(preset) failed with \(error.kind) on a \(status)")
                require(error.statusCode == status, "\(preset) failed with status \(String(describing: error.statusCode))")
                for text in [error.description, error.localizedDescription, error.serverMessage ?? "", error.responseSnippet ?? ""] {
                    require(!text.contains(sentRefreshToken), "\(preset)'s error shows the refresh token: \(text)")
                }
            }
        }
    }

    static func result(_ call: () async throws(NetworkError) -> Tokens) async -> Result<Tokens, NetworkError> {
        do { return .success(try await call()) } catch { return .failure(error) }
    }
}
