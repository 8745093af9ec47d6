public import Foundation

/// How a server says what went wrong: turns a failed response into the code and message
/// that ``NetworkError`` carries (``NetworkError/serverErrorCode``, ``NetworkError/serverMessage``),
/// so that rules such as "the refresh token was rejected" can tell one 401 from another.
///
/// Set it per server; the default, ``standard``, reads the four common shapes:
///
/// ```swift
/// var server = try Server(baseURL: "https://auth.example.com")
/// server.errorFormat = .oauth2                      // only RFC 6749's shape
/// server.errorFormat = ServerErrorFormat { response, body in   // a shape of your own
///     let reply = try? JSONDecoder().decode(MyError.self, from: body)
///     return reply.map { ServerErrorDetails(code: ServerErrorCode(rawValue: $0.reason), message: $0.text) }
/// }
/// ```
public struct ServerErrorFormat: Sendable {
    /// Reads a failed response (its head and body); `nil` when it is not in this format.
    public let decode: @Sendable (_ response: HTTPResponse, _ body: Data) -> ServerErrorDetails?

    /// A format from a function.
    public init(_ decode: @escaping @Sendable (_ response: HTTPResponse, _ body: Data) -> ServerErrorDetails?) {
        self.decode = decode
    }

    /// The app's contract: `{"error": {"code": "…", "message": "…"}}`.
    public static let appAPI = ServerErrorFormat { _, body in
        guard let envelope = try? JSONDecoder().decode(AppErrorEnvelope.self, from: body) else { return nil }
        return ServerErrorDetails(code: envelope.error.code, message: envelope.error.message)
    }

    /// RFC 6749 §5.2 (OAuth 2.0 token endpoint): `{"error": "invalid_grant", "error_description": "…"}`.
    public static let oauth2 = ServerErrorFormat { _, body in
        guard let reply = try? JSONDecoder().decode(OAuthErrorReply.self, from: body) else { return nil }
        return ServerErrorDetails(code: ServerErrorCode(rawValue: reply.error), message: reply.errorDescription)
    }

    /// RFC 6750 §3: the `error` and `error_description` of a `WWW-Authenticate: Bearer …`
    /// challenge, for example `Bearer realm="api", error="invalid_token", error_description="expired"`.
    public static let bearerChallenge = ServerErrorFormat { response, _ in
        guard let challenge = response.value(forHeaderField: "WWW-Authenticate"),
              let parameters = BearerChallenge.parameters(of: challenge),
              let error = parameters["error"], !error.isEmpty else { return nil }
        return ServerErrorDetails(code: ServerErrorCode(rawValue: error), message: parameters["error_description"])
    }

    /// Django REST framework (and djangorestframework-simplejwt): `{"detail": "…", "code": "…"}`,
    /// for example `{"detail": "Given token not valid for any token type", "code": "token_not_valid"}`.
    /// A body with a `detail` but no `code` is not claimed (there is no code to read); when
    /// `detail` is its only field (what Django REST framework answers a wrong password,
    /// `{"detail": "No active account found with the given credentials"}`), it is still the
    /// error's ``NetworkError/serverMessage``, with no code.
    public static let djangoRESTFramework = ServerErrorFormat { _, body in
        guard let reply = try? JSONDecoder().decode(DjangoRESTFrameworkError.self, from: body), !reply.code.isEmpty else { return nil }
        return ServerErrorDetails(code: ServerErrorCode(rawValue: reply.code), message: reply.detail)
    }

    /// The message of a body no format claimed, when it is Django REST framework's
    /// `{"detail": "…"}` and nothing else; `nil` otherwise.
    package static func detailOnlyMessage(in body: Data) -> String? {
        guard body.count < 65_536, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              object.count == 1, let detail = object["detail"] as? String, !detail.isEmpty else { return nil }
        return detail
    }

    /// The first format of `formats` that reads the response.
    public static func firstMatch(_ formats: [ServerErrorFormat]) -> ServerErrorFormat {
        ServerErrorFormat { response, body in
            for format in formats {
                if let details = format.decode(response, body) { return details }
            }
            return nil
        }
    }

    /// The default: ``appAPI``, else ``bearerChallenge`` (the RFC 6750 header says more than
    /// a framework's generic `{"error": "Unauthorized"}` body), else ``oauth2``, else
    /// ``djangoRESTFramework``.
    public static let standard = firstMatch([.appAPI, .bearerChallenge, .oauth2, .djangoRESTFramework])
}

/// The code and message a server sent with a failure.
public struct ServerErrorDetails: Sendable, Hashable {
    /// The server's error code.
    public var code: ServerErrorCode
    /// Its human-readable message, if any (redacted before it reaches a ``NetworkError``).
    public var message: String?

    /// Creates details.
    public init(code: ServerErrorCode, message: String? = nil) {
        self.code = code
        self.message = message
    }
}

/// `{"error": {"code": …, "message": …}}`.
private struct AppErrorEnvelope: Decodable {
    struct Body: Decodable {
        let code: ServerErrorCode
        let message: String?
    }
    let error: Body
}

/// `{"detail": …, "code": …}`.
private struct DjangoRESTFrameworkError: Decodable {
    let detail: String
    let code: String
}

/// `{"error": …, "error_description": …}`.
private struct OAuthErrorReply: Decodable {
    let error: String
    let errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
