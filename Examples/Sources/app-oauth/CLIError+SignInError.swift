import CLISupport
import OAuthSignIn

extension CLIError {
    /// Sorts any error of an `app-oauth` command into its failure class: a sign-in error by
    /// its kind, everything else as the other programs do (``CLIError/init(_:)``).
    init(oauth error: any Error) {
        guard let error = error as? SignInError else {
            self.init(error)
            return
        }
        // The error's description names no code, verifier, state, token or secret.
        // It may quote the server (its error_description): made safe for a terminal.
        let message = "sign-in failed: \(TerminalText.safe(error.localizedDescription))"
        switch error.kind {
        case .discoveryDocumentMissing, .discoveryDocumentMalformed, .issuerMismatch, .pkceS256Unsupported, .flowUnavailable:
            self.init(.usage, message, hint: "check --issuer (discovery is at ISSUER/.well-known/openid-configuration), --client-id and the flow")
        case .accessDenied, .expiredToken, .stateMismatch, .authorizationError, .tokenEndpointError,
             .deviceAuthorizationError, .idTokenInvalid:
            self.init(.notSignedIn, message, hint: "run app-oauth sign-in again")
        case .timedOut, .networkFailure, .invalidResponse, .loopbackFailed:
            self.init(.server, message)
        default:
            self.init(.unexpected, message)
        }
    }
}
