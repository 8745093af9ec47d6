import Foundation
public import SessionEngine

/// What sign-up, sign-in and anonymous sign-in return: the member and their first tokens.
public struct AuthSession: Codable, Sendable, Equatable {
    /// The signed-in member.
    public let member: Member
    /// The session's tokens.
    public let tokens: Tokens

    /// Creates a session value.
    public init(member: Member, tokens: Tokens) {
        self.member = member
        self.tokens = tokens
    }
}

/// What `POST /v1/auth/refresh` returns, its tokens' type judged by ``AuthAPI`` (`DPoP` only
/// in answer to a proof).
struct RefreshResult: Decodable, Sendable {
    let tokens: Tokens.Reply
}
