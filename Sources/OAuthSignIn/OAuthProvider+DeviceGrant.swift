import Foundation
import NetworkService
import SessionEngine

// The device authorization grant (RFC 8628).

extension OAuthProvider {
    /// The device flow: asks for a user code, has the front end show it, polls until the user
    /// approves, declines or the code expires; proving `proofing`'s key when given (the device
    /// code bound to it by `dpop_jkt`, each poll with a proof).
    func signInWithDevice(scopes: [String], proofing: DPoPProofing? = nil, requirement: AuthenticationRequirement? = nil,
                          show: @Sendable (DeviceAuthorization) async throws -> Void) async throws(SignInError) -> (TokenReply, IDTokenClaims?) {
        if let proofing { try checkDPoPSupport(of: proofing) }
        let authorization = try await startDeviceAuthorization(scopes: scopes, proofing: proofing, requirement: requirement)
        do {
            try await show(authorization)
        } catch is CancellationError {
            throw SignInError.cancelled
        } catch {
            throw SignInError.frontEndFailed.with(detail: "Showing the user code failed.", underlying: error)
        }
        let reply = try await pollForTokens(authorization, proofing: proofing)
        // RFC 8628 asks for no ID token, and many servers send none (django-oauth-toolkit's
        // stock device grant): one that comes is checked; without one, `signIn(with:)` asks
        // the userinfo endpoint who signed in.
        return (reply, try idTokenClaims(of: reply, nonce: nil, openIDRequested: false))
    }

    /// POSTs to the device authorization endpoint (RFC 8628 §3.1) and reads its answer (§3.2).
    /// With `proofing`, the request names its key's thumbprint (`dpop_jkt`, as RFC 9449 §10 does
    /// for the authorization request; glewlwyd binds the device code to it); it carries no
    /// proof: it is no token request.
    func startDeviceAuthorization(scopes: [String], proofing: DPoPProofing? = nil,
                                  requirement: AuthenticationRequirement? = nil) async throws(SignInError) -> DeviceAuthorization {
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw SignInError.flowUnavailable.with(detail: "The server has no device authorization endpoint.")
        }
        let object: [String: JSONValue]
        do {
            // A step-up's acr_values, max_age and prompt: RFC 8628 §3.1 leaves other parameters
            // to the server, and OpenID Connect providers read these there too.
            let fields = (scopes.isEmpty ? [] : [(name: "scope", value: scopes.joined(separator: " "))]) + Self.dpopJKTField(proofing)
                + (requirement?.requestFields ?? [])
            object = try await AuthorizationServerClient(provider: self).post(endpoint, fields, secrets: [])
        } catch {
            throw SignInError.from(error, endpoint: "device authorization endpoint") { .deviceAuthorizationError($0) }
        }
        // `verification_url` is the name Google's endpoint used before RFC 8628.
        guard let deviceCode = object["device_code"]?.string, !deviceCode.isEmpty,
              let userCode = object["user_code"]?.string, !userCode.isEmpty,
              let verification = (object["verification_uri"] ?? object["verification_url"])?.string,
              let verificationURI = URL(string: verification), verificationURI.scheme != nil else {
            throw SignInError.invalidResponse.with(detail: "The device authorization endpoint's answer lacks "
                + "device_code, user_code or verification_uri.")
        }
        // The user is sent to these and types the code: a `javascript:`, `file:` or `data:` URI, or
        // a code that carries escape sequences to the terminal showing it, is no answer to use.
        let complete = object["verification_uri_complete"]?.string
        let completeURI = complete.flatMap(URL.init(string:))
        if let problem = Self.problem(withVerificationURI: verificationURI, named: "verification_uri")
            ?? (complete == nil ? nil : completeURI.map { Self.problem(withVerificationURI: $0, named: "verification_uri_complete") }
                ?? "its verification_uri_complete is not a URL") {
            throw SignInError.invalidResponse.with(detail: "The device authorization endpoint's answer cannot be used: \(problem).")
        }
        guard userCode.unicodeScalars.count <= 64, !userCode.unicodeScalars.contains(where: Redaction.isUnprintable) else {
            throw SignInError.invalidResponse.with(detail: "The device authorization endpoint's answer cannot be used: "
                + "its user_code is longer than 64 characters or holds a control character.")
        }
        let expiresIn = Self.bounded(object["expires_in"], default: 1800, within: 1...86_400)
        return DeviceAuthorization(
            userCode: userCode, verificationURI: verificationURI, verificationURIComplete: completeURI,
            expiresIn: expiresIn,
            // Never longer than the code lives: a wait past its expiry is a wait for nothing.
            interval: min(Self.bounded(object["interval"], default: 5, within: 1...300), expiresIn),
            deviceCode: deviceCode)
    }

    /// Why `uri` is no page to send a user to, or `nil`: it must be https, or http on a loopback
    /// host (a server in tests), with a host and a port within 1–65535.
    static func problem(withVerificationURI uri: URL, named name: String) -> String? {
        guard let components = URLComponents(url: uri, resolvingAgainstBaseURL: false),
              components.host?.isEmpty == false,
              PlainHTTPRule.refusal(scheme: components.scheme, host: components.host, port: components.port) == nil else {
            return "its \(name) is not an https URL (or http on a loopback host)"
        }
        return nil
    }

    /// Polls the token endpoint (RFC 8628 §3.4, §3.5) at the interval, 5 s more after each
    /// `slow_down` and twice as long after a transient failure (a timeout, a lost connection,
    /// 5xx, 408, 429), until tokens, `access_denied`, `expired_token`, another error, the
    /// code's own expiry or cancellation. Each poll proves `proofing`'s key when given.
    func pollForTokens(_ authorization: DeviceAuthorization, proofing: DPoPProofing? = nil) async throws(SignInError) -> TokenReply {
        let deadline = clock.now().addingTimeInterval(authorization.expiresIn)
        var interval = authorization.interval
        let client = AuthorizationServerClient(provider: self, proofing: proofing)
        let fields = [(name: "grant_type", value: "urn:ietf:params:oauth:grant-type:device_code"),
                      ("device_code", authorization.deviceCode)]
        while true {
            do {
                try await clock.sleep(.milliseconds(Int64(interval * 1000)))
            } catch {
                throw SignInError.cancelled.with(detail: "The device sign-in was cancelled while waiting for approval.")
            }
            if Task.isCancelled {
                throw SignInError.cancelled.with(detail: "The device sign-in was cancelled while waiting for approval.")
            }
            guard clock.now() < deadline else {
                throw SignInError.expiredToken.with(detail: "The user code expired (after \(Int(authorization.expiresIn)) s) "
                    + "before it was approved.")
            }
            do {
                let sentAt = clock.now()
                let answer = try await client.postReadingDate(metadata.tokenEndpoint, fields, secrets: [authorization.deviceCode])
                guard var reply = TokenReply(answer.object, serverDate: answer.serverDate, proved: proofing != nil) else {
                    throw SignInError.invalidResponse.with(detail: "The token endpoint's answer cannot be used: "
                        + (TokenReply.problem(in: answer.object, proved: proofing != nil) ?? "it is not a token reply") + ".")
                }
                reply.sentAt = sentAt
                return reply
            } catch let error as NetworkError where error.kind == .httpStatus {
                switch error.serverErrorCode?.rawValue {
                case "authorization_pending":
                    continue
                case "slow_down":
                    interval = min(interval + 5, 300)
                case "access_denied":
                    throw SignInError.accessDenied.with(detail: "The user declined the device sign-in.", underlying: error)
                case "expired_token":
                    throw SignInError.expiredToken.with(detail: "The server says the user code expired before it was approved.",
                                                        underlying: error)
                default:
                    guard error.isTransient else { throw SignInError.from(error, endpoint: "token endpoint") }
                    // A 5xx, 408 or 429: wait longer and poll again, as for a timeout below.
                    interval = min(interval * 2, 300)
                }
            } catch let error as NetworkError where error.isTransient {
                // RFC 8628 §3.5: after a connection timeout, poll less often (doubling here), until
                // the code expires; a network that comes back still completes the sign-in.
                interval = min(interval * 2, 300)
            } catch let error as NetworkError {
                throw SignInError.from(error, endpoint: "token endpoint")
            } catch let error as SignInError {
                throw error
            } catch {
                throw SignInError.networkFailure.with(detail: "Polling the token endpoint failed.", underlying: error)
            }
        }
    }

    /// The client credentials grant (RFC 6749 §4.4), proving `proofing`'s key when given; its
    /// failures are the SDK's NetworkError, as the engine's refresh failure rules expect.
    func clientCredentialsGrant(scopes: [String], proofing: DPoPProofing? = nil) async throws(NetworkError) -> TokenReply {
        var fields = [(name: "grant_type", value: "client_credentials")]
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        let sentAt = clock.now()
        let answer = try await AuthorizationServerClient(provider: self, proofing: proofing)
            .postReadingDate(metadata.tokenEndpoint, fields, secrets: [])
        guard let reply = TokenReply(answer.object, serverDate: answer.serverDate, proved: proofing != nil) else {
            throw NetworkError(kind: .decoding, method: .post, path: AuthorizationServerClient.path(of: metadata.tokenEndpoint), statusCode: 200,
                               serverMessage: "the token endpoint's answer cannot be used: "
                                   + (TokenReply.problem(in: answer.object, proved: proofing != nil) ?? "it is not a token reply"))
        }
        // No refresh token (RFC 6749 §4.4.3): the next token comes from the same grant.
        var tokens = Tokens(accessToken: reply.tokens.accessToken, refreshToken: "",
                            tokenType: reply.tokens.tokenType, expiresIn: reply.tokens.expiresIn, scope: reply.scope)
        tokens.serverDate = reply.serverDate
        var credentialsReply = TokenReply(tokens: tokens, idToken: nil, scope: reply.scope, tokenType: reply.tokenType)
        credentialsReply.sentAt = sentAt
        return credentialsReply
    }

    /// A number of seconds from the server (a number or numeric string) brought within
    /// `range`; `fallback` when absent or not a finite number.
    private static func bounded(_ value: JSONValue?, default fallback: TimeInterval, within range: ClosedRange<TimeInterval>) -> TimeInterval {
        let seconds: Double?
        switch value {
        case let .number(number)?: seconds = number
        case let .string(text)?: seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite else { return fallback }
        return min(max(seconds, range.lowerBound), range.upperBound)
    }
}
