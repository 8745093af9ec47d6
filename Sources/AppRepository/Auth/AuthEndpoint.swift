import NetworkService

/// The routes under `/v1/auth`.
enum AuthEndpoint: Endpoint {
    case signUp(email: String, password: String, nickname: String)
    case signIn(email: String, password: String)
    case anonymous
    case refresh(refreshToken: String)
    case signOut(refreshToken: String)

    var method: HTTPMethod { .post }

    var path: EndpointPath {
        switch self {
        case .signUp: "/v1/auth/sign-up"
        case .signIn: "/v1/auth/sign-in"
        case .anonymous: "/v1/auth/anonymous"
        case .refresh: "/v1/auth/refresh"
        case .signOut: "/v1/auth/sign-out"
        }
    }

    var body: RequestBody {
        switch self {
        case let .signUp(email, password, nickname):
            .json(SignUpBody(email: email, password: password, nickname: nickname))
        case let .signIn(email, password):
            .json(SignInBody(email: email, password: password))
        case .anonymous:
            .none
        case let .refresh(refreshToken), let .signOut(refreshToken):
            .json(RefreshTokenBody(refreshToken: refreshToken))
        }
    }

    var authentication: EndpointAuthentication {
        switch self {
        case .signOut: .bearer
        default: .none
        }
    }

    var secrets: [String] {
        switch self {
        case let .signUp(_, password, _), let .signIn(_, password): [password]
        case let .refresh(refreshToken), let .signOut(refreshToken): [refreshToken]
        case .anonymous: []
        }
    }

    struct SignUpBody: Encodable, Sendable {
        let email: String
        let password: String
        let nickname: String
    }

    struct SignInBody: Encodable, Sendable {
        let email: String
        let password: String
    }

    struct RefreshTokenBody: Encodable, Sendable {
        let refreshToken: String
    }
}

extension AuthEndpoint: CustomStringConvertible, CustomReflectable {
    /// The route only: never the password or refresh token the case carries.
    var description: String { "AuthEndpoint(\(summary))" }
    /// A mirror without the password or refresh token.
    var customMirror: Mirror { Mirror(self, children: ["route": summary]) }
}
