import AppSDKTesting
import Foundation
import NetworkService
@testable import OAuthSignIn
import SessionEngine
import Testing
import TokenStore

@Suite("No sign-in error, nor any printed value, shows a code, verifier, state, nonce, token, device code or client secret")
struct SignInErrorSecrecyTests {
    let redirect = URL(string: "com.example.app:/callback")!

    /// Every way of printing `value`.
    func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var texts = [String(describing: value), String(reflecting: value), dumped]
        if let error = value as? any Error {
            texts.append(error.localizedDescription)
            if let localized = error as? any LocalizedError { texts.append(localized.errorDescription ?? "") }
        }
        return texts
    }

    func expectNoSecret(in value: Any, _ secrets: [String], _ comment: Comment? = nil) {
        for text in printed(value) {
            for secret in secrets where !secret.isEmpty {
                #expect(!text.contains(secret), "\(comment ?? "") leaks a secret: \(text.replacingOccurrences(of: secret, with: "<SECRET>"))")
            }
        }
    }

    @Test("every error of every flow, with a server that echoes the secrets it received in its error descriptions")
    func everyFlowsErrors() async throws {
        let fake = try FakeOIDCServer()
        let provider = try await fake.provider()
        let confidential = try await fake.provider(clientID: FakeOIDCServer.confidentialClientID, clientSecret: FakeOIDCServer.clientSecret)
        let session = SessionService(server: fake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(provider))
        var errors: [any Error] = []
        var secrets: [String] = [FakeOIDCServer.clientSecret]
        func collect(_ body: () async throws -> Void) async {
            do { try await body(); Issue.record("expected an error") } catch { errors.append(error) }
        }

        // The authorization request's own secrets, and a server that echoes them.
        let request = try provider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        secrets += [request.state, request.codeVerifier, try #require(request.nonce)]
        expectNoSecret(in: request, secrets, "the authorization request")
        let echo = "state \(request.state) nonce \(request.nonce!) verifier \(request.codeVerifier)"
        await collect { try await session.signIn(with: .callback(FakeOIDCServer.callback(redirect.absoluteString,
            ["error": "access_denied", "error_description": echo, "state": request.state]), for: request, provider)) }
        await collect { try await session.signIn(with: .callback(FakeOIDCServer.callback(redirect.absoluteString,
            ["error": "server_error", "error_description": echo, "state": request.state]), for: request, provider)) }
        await collect { try await session.signIn(with: .callback(FakeOIDCServer.callback(redirect.absoluteString,
            ["code": "a-stolen-code-0001", "state": "wrong-state"]), for: request, provider)) }
        secrets.append("a-stolen-code-0001")

        // The token endpoint echoing the code, the verifier and the client secret.
        let callback = fake.approve(request.url)
        let code = try #require(FakeOIDCServer.query(of: callback)["code"])
        secrets.append(code)
        let original = fake.transport
        original.serve { incoming in
            // Everything the request carried, the Basic credentials decoded.
            let form = FakeOIDCServer.form(of: incoming)
            let basic = incoming.value(forHeaderField: "Authorization").map { header in
                [header, String(decoding: Data(base64Encoded: String(header.dropFirst(6))) ?? Data(), as: UTF8.self)]
            } ?? []
            let said = (form.values + basic).joined(separator: " ")
            return .json(400, #"{"error":"invalid_grant","error_description":"\#(said)"}"#)
        }
        await collect { try await session.signIn(with: .callback(callback, for: request, provider)) }
        await collect { try await SessionService(server: fake.api, tokenStore: InMemoryTokenStore(),
                                                 configuration: .clientCredentials(confidential, scopes: ["read"]))
                .signIn(with: .clientCredentials(confidential, scopes: ["read"])) }

        // The device flow: the device code echoed back in a denial.
        let deviceFake = try FakeOIDCServer()
        deviceFake.configure { $0.devicePolls = ["authorization_pending"] }
        let deviceProvider = try await deviceFake.provider()
        let authorization = try await deviceProvider.startDeviceAuthorization(scopes: [])
        secrets.append(authorization.deviceCode)
        expectNoSecret(in: authorization, [authorization.deviceCode], "the device authorization")
        deviceFake.transport.serve { [authorization] _ in
            .json(400, #"{"error":"access_denied","error_description":"denied \#(authorization.deviceCode)"}"#)
        }
        await collect { _ = try await deviceProvider.pollForTokens(authorization) }
        deviceFake.transport.serve { [authorization] _ in
            .json(400, #"{"error":"invalid_request","error_description":"bad \#(authorization.deviceCode)"}"#)
        }
        await collect { _ = try await deviceProvider.pollForTokens(authorization) }

        // An ID token with another nonce.
        let nonceFake = try FakeOIDCServer()
        nonceFake.configure { $0.idTokenClaims = { var claims = $0; claims["nonce"] = "nonce-of-another-request-77"; return claims } }
        let nonceProvider = try await nonceFake.provider()
        let nonceRequest = try nonceProvider.authorizationRequest(redirectURI: redirect, scopes: ["openid"])
        secrets += [nonceRequest.nonce!, "nonce-of-another-request-77", nonceRequest.state, nonceRequest.codeVerifier]
        await collect {
            try await SessionService(server: nonceFake.api, tokenStore: InMemoryTokenStore(), configuration: .oauth2(nonceProvider))
                .signIn(with: .callback(nonceFake.approve(nonceRequest.url), for: nonceRequest, nonceProvider))
        }
        secrets += nonceFake.secrets + fake.secrets + deviceFake.secrets

        #expect(errors.count == 8)
        for error in errors {
            #expect(error is SignInError)
            expectNoSecret(in: error, secrets, "\(type(of: error))")
        }
        expectNoSecret(in: confidential, [FakeOIDCServer.clientSecret], "the provider")
    }

    @Test("the static errors' descriptions say what happened in words, with the kind's name")
    func staticErrors() {
        let all: [SignInError] = [
            .discoveryDocumentMissing, .discoveryDocumentMalformed, .issuerMismatch, .pkceS256Unsupported, .flowUnavailable,
            .stateMismatch, .accessDenied, .expiredToken, .timedOut, .cancelled, .invalidResponse, .networkFailure,
            .frontEndFailed, .authorizationError("invalid_scope"), .tokenEndpointError("invalid_grant"),
            .deviceAuthorizationError("invalid_client"), .idTokenInvalid(.nonce), .loopbackFailed(.oversizedRequest),
        ]
        for error in all {
            let text = error.errorDescription ?? ""
            #expect(text.hasSuffix("."), "\(error.kind)")
            #expect(!text.contains("sign-in failed (\(error.kind))"), "\(error.kind) has its own sentence")
            #expect(error.description.hasPrefix("SignInError.\(error.kind)"))
        }
        #expect(SignInError.tokenEndpointError("invalid_grant").description.contains("invalid_grant"))
        #expect(SignInError.idTokenInvalid(.nonce) != SignInError.idTokenInvalid(.issuer))
    }
}
