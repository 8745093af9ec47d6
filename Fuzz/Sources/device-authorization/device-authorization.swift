import Foundation
import FuzzSupport
import NetworkService
@testable import OAuthSignIn

/// OAuthSignIn's device-authorization response reader (RFC 8628 §3.2,
/// `OAuthProvider.startDeviceAuthorization`), the body behind a provider's transport. The first
/// byte picks the status: 200 mostly, else 400 (the error reader runs on the body).
/// Invariants: an answer gives a non-empty user code and device code, a verification URI with
/// a scheme, `expires_in` within 1 s … a day and `interval` within 1 … 300 s (bounded before any
/// arithmetic), whatever numbers came; a failure is a `SignInError` of a reading or server
/// kind; the description shows no device code.
@main enum DeviceAuthorizationFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let metadata = AuthorizationServerMetadata(
        issuer: URL(string: "https://issuer.example.com")!,
        tokenEndpoint: URL(string: "https://issuer.example.com/token")!,
        deviceAuthorizationEndpoint: URL(string: "https://issuer.example.com/device")!)

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let status = selector < 224 ? 200 : 400
        let provider = OAuthProvider(metadata: metadata, clientID: "fuzz-client",
                                     transport: ReplyTransport(body: Data(rest), status: status))
        let outcome: Result<DeviceAuthorization, SignInError> = runBlocking {
            do throws(SignInError) { return .success(try await provider.startDeviceAuthorization(scopes: ["openid"])) } catch { return .failure(error) }
        }
        switch outcome {
        case let .success(authorization):
            require(status == 200, "an authorization read from a \(status)")
            require(!authorization.userCode.isEmpty && !authorization.deviceCode.isEmpty, "an empty code was read")
            require(authorization.verificationURI.scheme != nil, "a verification URI without a scheme")
            require((1...86_400).contains(authorization.expiresIn), "expires_in \(authorization.expiresIn) out of bounds")
            require((1...300).contains(authorization.interval), "interval \(authorization.interval) out of bounds")
            require(!authorization.description.contains(authorization.deviceCode) || authorization.deviceCode.count < 4
                    || authorization.userCode.contains(authorization.deviceCode)
                    || authorization.verificationURI.absoluteString.contains(authorization.deviceCode),
                    "the description shows the device code")
        case let .failure(error):
            let kinds: [SignInError.Kind] = status == 200 ? [.invalidResponse, .networkFailure]
                : [.deviceAuthorizationError, .networkFailure, .invalidResponse]
            require(kinds.contains(error.kind), "failed on a \(status) with \(error.kind)")
        }
    }
}
