import CLISupport
import NetworkService
import OAuthSignIn
import SessionEngine

extension CLIError {
    /// Sorts any error of an `app-oauth` command into its failure class: a sign-in error by
    /// its kind and the server's answer, a session error by the server's answer under it,
    /// everything else as the other programs do (``CLIError/init(_:)``).
    ///
    /// - A client the server does not accept (`invalid_client`, `unauthorized_client`, an
    ///   empty-bodied 401 from the token endpoint) or a scope it refuses (`invalid_scope`) is
    ///   a usage error (64): `--client-id`, `--client-secret-file` or `--scope` must change,
    ///   at sign-in and at a later renewal alike.
    /// - Another 403 is forbidden (68), another 4xx (but 408 and 429) rejected (69): asking
    ///   again cannot help, so neither is the transient class (67).
    /// - Parameters:
    ///   - error: What the command met.
    ///   - signingIn: Whether the command is `sign-in`: only its messages start with
    ///     "sign-in failed:".
    init(oauth error: any Error, signingIn: Bool) {
        let prefix = signingIn ? "sign-in failed: " : ""
        if let refusal = Self.clientRefusal(in: error) {
            // It may quote the server (its error_description): made safe for a terminal.
            let text = (error as? SignInError).map { TerminalText.safe($0.localizedDescription) } ?? TerminalText.safe("\(error)")
            self.init(.usage, prefix + text, hint: refusal)
            return
        }
        guard let error = error as? SignInError else {
            self.init(error)
            return
        }
        let message = prefix + TerminalText.safe(error.localizedDescription)
        switch error.kind {
        case .discoveryDocumentMissing, .discoveryDocumentMalformed, .issuerMismatch, .pkceS256Unsupported, .flowUnavailable, .insecureURL:
            self.init(.usage, message, hint: "check --issuer (discovery is at ISSUER/.well-known/openid-configuration), --client-id and the flow")
        case .accessDenied, .expiredToken, .stateMismatch, .authorizationError, .tokenEndpointError,
             .deviceAuthorizationError, .idTokenInvalid:
            self.init(.notSignedIn, message, hint: "run app-oauth sign-in again")
        case .dpopAlgorithmUnsupported:
            self.init(.usage, message, hint: "choose an algorithm the server lists with --dpop eddsa|es256, or sign in without --dpop")
        case .dpopKeyUnusable:
            self.init(.usage, message, hint: "sign in without --dpop, or with another --dpop kind")
        case .timedOut, .networkFailure, .invalidResponse, .loopbackFailed:
            switch Self.httpStatus(in: error) {
            case 403:
                self.init(.forbidden, message, hint: "the server refused the client or what it asked for: check --client-secret-file and --scope")
            case let status? where (400...499).contains(status) && status != 408 && status != 429:
                self.init(.rejected, message)
            default:
                self.init(.server, message)
            }
        default:
            self.init(.unexpected, message)
        }
    }

    /// The hint for an error that says the server does not accept the client or the scope,
    /// or `nil`: the server's `invalid_client`, `unauthorized_client` or `invalid_scope`, or
    /// a 401 without a code from the token endpoint (RFC 6749 §5.2: a failed client
    /// authentication), found in the error or the one under it.
    static func clientRefusal(in error: any Error) -> String? {
        let network: NetworkError?
        switch error {
        case let error as SignInError:
            if let code = error.serverErrorCode { return hint(for: code) }
            network = error.underlying as? NetworkError
        case let error as SessionError:
            network = error.underlying as? NetworkError ?? (error.underlying as? SignInError)?.underlying as? NetworkError
            if let code = (error.underlying as? SignInError)?.serverErrorCode { return hint(for: code) }
        case let error as NetworkError:
            network = error
        default:
            network = nil
        }
        guard let network, network.kind == .httpStatus else { return nil }
        if let code = network.serverErrorCode { return hint(for: code) }
        return network.statusCode == 401 && error is SignInError
            ? "the server refused the client's credentials: check --client-id and --client-secret-file" : nil
    }

    private static func hint(for code: ServerErrorCode) -> String? {
        switch code.rawValue {
        case "invalid_client", "unauthorized_client":
            "the server does not accept this client: check --client-id and --client-secret-file, then app-oauth sign-in again"
        case "invalid_scope":
            "the server refused the scope: check --scope, then app-oauth sign-in again"
        default:
            nil
        }
    }

    /// The HTTP status under a sign-in error, if the server answered one.
    private static func httpStatus(in error: SignInError) -> Int? {
        guard let network = error.underlying as? NetworkError, network.kind == .httpStatus else { return nil }
        return network.statusCode
    }
}
