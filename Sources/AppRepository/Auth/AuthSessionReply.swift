import NetworkService
import SessionEngine

/// What sign-up, sign-in and anonymous sign-in answer, read before its tokens' type is judged:
/// `DPoP` is understood only when the request carried a DPoP proof (RFC 9449 §5), which
/// ``AuthAPI`` knows from the server it sent through, not the decoder.
struct AuthSessionReply: Decodable, Sendable {
    let member: Member
    let tokens: Tokens.Reply

    /// The session, when its tokens' type fits how `endpoint` was sent through `server`.
    /// - Throws: `NetworkError` of kind `.decoding`, as ``Tokens/Reply/tokens(answering:on:)``.
    func session(answering endpoint: AuthEndpoint, on server: Server) throws(NetworkError) -> AuthSession {
        AuthSession(member: member, tokens: try tokens.tokens(answering: endpoint, on: server))
    }
}

extension Tokens.Reply {
    /// The tokens of the answer to `endpoint` sent through `server`: `Bearer` always, `DPoP`
    /// when `server` proved the request (a server the engine hands a DPoP sign-in or refresh).
    /// - Throws: `NetworkError` of kind `.decoding` (status 200) naming the token type, never
    ///   a token, when the type cannot be used (RFC 6749 §7.1).
    func tokens(answering endpoint: AuthEndpoint, on server: Server) throws(NetworkError) -> Tokens {
        do {
            return try tokens(proved: server.provesEveryRequest)
        } catch {
            throw NetworkError(kind: .decoding, method: endpoint.method, path: endpoint.path.rendered, statusCode: 200,
                               serverMessage: "the answer's tokens cannot be used: \(error.reason)", underlying: error)
        }
    }
}
