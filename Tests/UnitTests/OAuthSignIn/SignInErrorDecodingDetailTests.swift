import Foundation
@testable import OAuthSignIn
import Testing

/// What a sign-in error says about a token answer it could not use: why, never that a JSON
/// object is not one (the hostile-server kit's DPoP token_type modes found the old wording).
@Suite("A token answer that cannot be used is described by what is wrong with it")
struct SignInErrorDecodingDetailTests {
    @Test("a JSON answer with a token type the client does not understand: invalidResponse naming the token type, not 'not a JSON object'",
          arguments: ["mac", "DPoP  "])
    func tokenTypeRefused(type: String) async throws {
        let server = try DPoPFakeAuthorizationServer()
        server.configure { $0.tokenTypeOverride = type }
        let provider = try await server.confidentialProvider()
        let error = await #expect(throws: SignInError.self) {
            try await SignInFlow.clientCredentials(provider, scopes: []).run(proofing: DPoPFakeAuthorizationServer.proofing())
        }
        let text = String(describing: error)
        #expect(error?.kind == .invalidResponse)
        #expect(!text.contains("not a JSON object"), "\(text)")
        #expect(text.contains("token type"), "\(text)")
    }
}
