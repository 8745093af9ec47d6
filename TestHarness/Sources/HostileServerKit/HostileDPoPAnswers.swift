public import Foundation
public import AppSDKTesting

/// The answers a DPoP server (RFC 9449) gives, well-behaved or not, that the DPoP modes
/// (``HostileMode``'s `dpop` family) build theirs from.
public enum HostileDPoPAnswers {
    /// Where in a DPoP exchange a mode answers.
    public enum Place: Sendable, CaseIterable, CustomStringConvertible {
        /// The token endpoint, answering a client-credentials sign-in's proof.
        case signIn
        /// The token endpoint, answering a DPoP-bound session's refresh.
        case refresh
        /// The API, answering a call with the session's DPoP token.
        case api
        /// The token endpoint, answering a device sign-in's polls.
        case deviceSignIn
        /// The revocation endpoint, answering a DPoP-bound session's sign-out.
        case signOut

        /// The operation a mode at this place attacks.
        public var operation: HostileOperation {
            switch self {
            case .signIn: .clientCredentialsSignIn
            case .refresh: .refresh
            case .api: .apiCall
            case .deviceSignIn: .deviceSignIn
            case .signOut: .revocation
            }
        }

        /// The endpoint this place is answered at.
        public var route: HostileProvider.Route {
            switch self {
            case .signIn, .refresh, .deviceSignIn: .token
            case .api: .api
            case .signOut: .revocation
            }
        }

        /// For example `token endpoint (refresh)`.
        public var description: String {
            switch self {
            case .signIn: "token endpoint (client-credentials sign-in)"
            case .refresh: "token endpoint (refresh)"
            case .api: "API (\(HostileOperation.apiCall))"
            case .deviceSignIn: "token endpoint (device sign-in)"
            case .signOut: "revocation endpoint (sign-out)"
            }
        }

        /// Puts `answer` where this place is answered: the token endpoint (for the grant the
        /// place attacks; other token requests get the well-behaved answer) or the API.
        public func install(_ answer: @escaping HostileScript.Answer, in script: inout HostileScript) {
            switch self {
            case .signIn:
                script.token = { context in context.grantType == "client_credentials" ? answer(context) : HostileAnswers.token(context) }
            case .refresh:
                script.token = { context in context.grantType == "refresh_token" ? answer(context) : HostileAnswers.token(context) }
            case .api:
                script.api = answer
            case .deviceSignIn:
                script.token = { context in
                    context.grantType == "urn:ietf:params:oauth:grant-type:device_code" ? answer(context) : HostileAnswers.token(context)
                }
            case .signOut:
                script.revocation = answer
            }
        }
    }

    /// The well-behaved answer at `place` (before any hostile one was installed).
    public static func wellBehaved(at place: Place, _ context: HostileContext) -> LoopbackHTTPServer.Reply {
        switch place {
        case .signIn, .refresh, .deviceSignIn: HostileAnswers.token(context)
        case .api: HostileAnswers.api(context)
        case .signOut: HostileAnswers.revocation(context)
        }
    }

    /// A nonce that is new on every answer: `Nl.` and the start of the proof's `jti` (every
    /// proof has a new one); `Nl.none` for a request without a proof.
    public static func freshNonce(_ context: HostileContext) -> String {
        let jti = context.proof.flatMap(HostileProof.init)?.payload["jti"] as? String
        return "Nl." + (jti.map { String($0.prefix(12)) } ?? "none")
    }

    /// A nonce challenge at `place` (RFC 9449 Figures 20 and 24): a 400 `use_dpop_nonce` at the
    /// token endpoint, a 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"` at the API,
    /// with `DPoP-Nonce: nonce` (none when `nil`), its header lines written as they are.
    public static func challenge(at place: Place, nonce: String?, authenticate: String? = nil) -> LoopbackHTTPServer.Reply {
        refusal(at: place, code: "use_dpop_nonce", nonces: nonce.map { [$0] } ?? [], authenticate: authenticate)
    }

    /// A 401 (at the API, or a token endpoint that says it so) whose only say is `authenticate` (each of its lines a
    /// `WWW-Authenticate` header line), with `DPoP-Nonce: nonce` and a body naming no error code.
    public static func apiChallenge(_ authenticate: String, nonce: String) -> LoopbackHTTPServer.Reply {
        let lines = ["Content-Type: application/json", "DPoP-Nonce: " + nonce]
            + authenticate.components(separatedBy: "\n").map { "WWW-Authenticate: " + $0 }
        return HostileAnswers.raw("HTTP/1.1 401 Unauthorized", headerLines: lines, body: Data(#"{"message":"see WWW-Authenticate"}"#.utf8))
    }

    /// A refusal at `place` with `code`: the token endpoint's 400 (or `status`) with the code in
    /// an OAuth error body; the API's 401 (or `status`) with `WWW-Authenticate: DPoP
    /// error="code"` (or `authenticate`, each of its lines a header line). `nonces` each go in a
    /// `DPoP-Nonce` line.
    public static func refusal(at place: Place, code: String, status: Int? = nil, nonces: [String] = [],
                               authenticate: String? = nil) -> LoopbackHTTPServer.Reply {
        let api = place == .api
        let status = status ?? (api ? 401 : 400)
        var lines = ["Content-Type: application/json", "Cache-Control: no-store"]
        if api || authenticate != nil {
            let challenges = authenticate ?? #"DPoP error="\#(code)", error_description="proof refused""#
            lines += challenges.components(separatedBy: "\n").map { "WWW-Authenticate: " + $0 }
        }
        lines += nonces.map { "DPoP-Nonce: " + $0 }
        let body = HostileAnswers.json(["error": code, "error_description": "the DPoP proof was refused"])
        return HostileAnswers.raw("HTTP/1.1 \(status) \(status == 401 ? "Unauthorized" : status == 403 ? "Forbidden" : "Bad Request")",
                                  headerLines: lines, body: body)
    }

    /// The well-behaved answer at `place` with `nonce` in a `DPoP-Nonce` header line, as written
    /// (RFC 9449 §8.2: the next nonce may come with any answer).
    public static func success(at place: Place, _ context: HostileContext, nonce: String) -> LoopbackHTTPServer.Reply {
        let body = place == .api ? Data(#"{"sub":"\#(HostileSecrets.subject)"}"#.utf8) : HostileAnswers.json(HostileAnswers.tokenFields(context))
        return HostileAnswers.raw(headerLines: ["Content-Type: application/json", "Cache-Control: no-store", "DPoP-Nonce: " + nonce],
                                  body: body)
    }
}
