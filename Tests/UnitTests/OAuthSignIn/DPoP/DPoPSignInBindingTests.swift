import AppSDKHarness
import Foundation
@testable import NetworkService
@testable import OAuthSignIn
import Testing

@Suite("A DPoP sign-in binds the code to its key (dpop_jkt, RFC 9449 §10) and asks the server's algorithms first")
struct DPoPSignInBindingTests {
    typealias FakeAS = DPoPFakeAuthorizationServer
    static let redirect = URL(string: "http://127.0.0.1:53682/callback")!

    @Test("the authorization URL carries dpop_jkt, the signer's RFC 7638 thumbprint; a bearer one carries none")
    func authorizationURL() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let bound = try provider.makeAuthorizationRequest(redirectURI: Self.redirect, scopes: ["profile"], proofing: proofing)
        let bearer = try provider.makeAuthorizationRequest(redirectURI: Self.redirect, scopes: ["profile"])
        #expect(FakeAS.query(of: bound.url)["dpop_jkt"] == proofing.signer.publicKey.thumbprint)
        #expect(FakeAS.query(of: bearer.url)["dpop_jkt"] == nil)
        #expect(bound.proofing === proofing)
        #expect(!String(describing: bound).contains(proofing.signer.publicKey.thumbprint))
    }

    @Test("the code is bound: exchanged with another key's proof it is refused (403 invalid_dpop_proof), with the request's key it works")
    func codeBoundToKey() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        let request = try provider.makeAuthorizationRequest(redirectURI: Self.redirect, scopes: ["profile"], proofing: proofing)
        let callback = server.approve(request.url)
        let stolen = AuthorizationRequest(url: request.url, redirectURI: request.redirectURI, scopes: request.scopes, state: request.state,
                                          nonce: request.nonce, codeVerifier: request.codeVerifier, proofing: try FakeAS.proofing())
        let error = await #expect(throws: SignInError.self) {
            try await provider.completeAuthorization(callbackURL: callback, request: stolen)
        }
        #expect(error?.kind == .tokenEndpointError)
        #expect(error?.serverErrorCode == .invalidDPoPProof)
        let (reply, _) = try await provider.completeAuthorization(callbackURL: callback, request: request)
        #expect(reply.tokenType == .dpop)
    }

    @Test("the device authorization request carries dpop_jkt, and carries no proof")
    func deviceAuthorization() async throws {
        let server = try FakeAS()
        let provider = try await server.provider()
        let proofing = try FakeAS.proofing()
        _ = try await provider.signInWithDevice(scopes: ["profile"], proofing: proofing) { _ in }
        let start = try #require(server.requests(to: "/device").first)
        #expect(start.form["dpop_jkt"] == proofing.signer.publicKey.thumbprint)
        #expect(start.header("DPoP") == nil)
        #expect(server.state.withLock { $0.deviceJKT } == proofing.signer.publicKey.thumbprint)
    }

    @Test("discovery reads dpop_signing_alg_values_supported; a document without it leaves nil")
    func metadataField() async throws {
        let server = try FakeAS()
        #expect(try await server.provider().metadata.dpopSigningAlgValuesSupported == ["ES256", "EdDSA"])
        let without = try FakeAS()
        without.configure { $0.algorithms = nil }
        #expect(try await without.provider().metadata.dpopSigningAlgValuesSupported == nil)
    }

    @Test("metadata kept by an earlier release (no such key) still decodes, and the field round-trips")
    func metadataCoding() throws {
        var metadata = AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.com")!,
                                                   tokenEndpoint: URL(string: "https://auth.example.com/token")!)
        let old = try JSONEncoder().encode(metadata)
        #expect(try JSONDecoder().decode(AuthorizationServerMetadata.self, from: old).dpopSigningAlgValuesSupported == nil)
        metadata.dpopSigningAlgValuesSupported = ["ES256"]
        let decoded = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: JSONEncoder().encode(metadata))
        #expect(decoded == metadata)
    }

    @Test("without dpop_signing_alg_values_supported, every flow fails before sending: the server does not offer DPoP")
    func notOffered() async throws {
        let server = try FakeAS()
        server.configure { $0.algorithms = nil }
        let provider = try await server.provider()
        let confidential = try await server.confidentialProvider()
        let proofing = try FakeAS.proofing()
        let before = server.requests.count
        var errors: [SignInError] = []
        do { _ = try provider.makeAuthorizationRequest(redirectURI: Self.redirect, scopes: [], proofing: proofing) } catch { errors.append(error) }
        do { _ = try await provider.signInWithDevice(scopes: [], proofing: proofing) { _ in } } catch { errors.append(error) }
        do { _ = try await SignInFlow.clientCredentials(confidential, scopes: []).run(proofing: proofing) } catch let error as SignInError {
            errors.append(error)
        }
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.kind == .dpopAlgorithmUnsupported })
        #expect(errors.allSatisfy { $0.localizedDescription.contains("does not offer DPoP") })
        #expect(server.requests.count == before)
    }

    @Test("a list without the key's algorithm fails before sending, naming the server's algorithms")
    func algorithmNotListed() async throws {
        let server = try FakeAS()
        server.configure { $0.algorithms = ["ES256", "PS256"] }
        let provider = try await server.provider()
        let before = server.requests.count
        let error = await #expect(throws: SignInError.self) {
            try await provider.signInWithDevice(scopes: [], proofing: try FakeAS.proofing()) { _ in }
        }
        #expect(error?.kind == .dpopAlgorithmUnsupported)
        #expect(error?.detail?.contains("[ES256, PS256]") == true)
        #expect(error?.detail?.contains("EdDSA") == true)
        #expect(server.requests.count == before)
    }
}
