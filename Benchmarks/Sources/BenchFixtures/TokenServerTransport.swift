public import Foundation
public import NetworkService

/// A transport that answers from memory as the app's API and its JSON refresh call would:
/// `POST …/token/refresh` gets new tokens (an access token of the given lifetime), everything
/// else the post of ``Fixtures``. No sockets, no server.
public struct TokenServerTransport: HTTPTransport {
    /// The refresh call's reply.
    public let tokensBody: Data

    /// A transport whose refresh answers tokens living `expiresIn` seconds.
    public init(expiresIn: Int) {
        tokensBody = Data(#"""
        {"access_token":"bench-access-token-rotated","refresh_token":"bench-refresh-token-rotated",\#
        "expires_in":\#(expiresIn)}
        """#.utf8)
    }

    public func send(_ request: HTTPRequest) async throws -> (Data, HTTPResponse) {
        if request.method == .post, request.url.path.hasSuffix(Fixtures.refreshPath) {
            return (tokensBody, Fixtures.okResponse)
        }
        return (Fixtures.body, Fixtures.okResponse)
    }
}
