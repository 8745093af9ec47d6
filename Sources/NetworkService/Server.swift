public import Foundation

/// Where the API lives and how to reach it: a base URL and a transport.
///
/// A `Server` is a plain value: make as many as you need (production, staging, a test
/// server on loopback). The base URL is checked when the value is made, so a malformed URL
/// is an error here, never a crash later.
///
/// ```swift
/// let server = try Server(baseURL: "https://api.example.com")
/// let member = try await MemberAPI.fetchMe(server: server, accessToken: token)
/// ```
public struct Server: Sendable {
    /// The base URL; each endpoint's ``Endpoint/path`` (which starts with `/`) is appended to
    /// its path, so `https://example.com/api` and `/v1/posts` give `https://example.com/api/v1/posts`.
    public let baseURL: URL
    /// How requests are sent.
    public let transport: any HTTPTransport
    /// How the server's error responses are read into ``NetworkError/serverErrorCode`` and
    /// ``NetworkError/serverMessage``. Default ``ServerErrorFormat/standard``: the app's
    /// envelope, RFC 6749's `{"error", "error_description"}`, RFC 6750's `WWW-Authenticate`
    /// challenge, or Django REST framework's `{"detail", "code"}`.
    public var errorFormat: ServerErrorFormat = .standard

    /// Creates a server from a base URL string such as `https://api.example.com` or
    /// `http://127.0.0.1:8080/prefix`.
    ///
    /// Every request to the API carries a secret (a token, a password), so plain `http:` is
    /// accepted only for a loopback host (127.0.0.0/8, `::1`, `localhost`) unless
    /// `allowsPlainHTTP` says otherwise: for a test network of your own, never for a server
    /// reached over a network you do not control.
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - transport: How requests are sent.
    ///   - allowsPlainHTTP: Accept `http:` on a host that is not loopback. Default `false`.
    /// - Throws: ``NetworkError`` of kind `.invalidServerURL` when the text is not an absolute http(s) URL with
    ///   a host, carries a query, fragment or user info, has a port outside 1–65535, or is
    ///   plain http on a host that is not loopback (without `allowsPlainHTTP`).
    public init(baseURL: String, transport: any HTTPTransport = URLSessionTransport(),
                allowsPlainHTTP: Bool = false) throws(NetworkError) {
        let trimmed = baseURL.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it is empty")
        }
        guard let components = URLComponents(string: trimmed) else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it is not a valid URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw NetworkError.invalidServerURL(baseURL, reason: "the scheme must be http or https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it has no host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it must not have a query or fragment")
        }
        guard components.user == nil, components.password == nil else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it must not carry user info")
        }
        if let reason = PlainHTTPRule.refusal(scheme: allowsPlainHTTP ? "https" : scheme, host: host, port: components.port) {
            throw NetworkError.invalidServerURL(baseURL, reason: reason)
        }
        guard let url = components.url else {
            throw NetworkError.invalidServerURL(baseURL, reason: "it is not a valid URL")
        }
        self.baseURL = url
        self.transport = transport
        self.basePrefix = Self.prefix(of: url)
        self.htuPrefix = Self.prefix(of: DPoPTarget(url)?.htu ?? basePrefix)
        self.origin = RedirectPolicy.origin(of: url)
    }

    /// Creates a server from a base URL, checked as ``init(baseURL:transport:allowsPlainHTTP:)-(String,_,_)`` checks text.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(),
                allowsPlainHTTP: Bool = false) throws(NetworkError) {
        try self.init(baseURL: baseURL.absoluteString, transport: transport, allowsPlainHTTP: allowsPlainHTTP)
    }

    /// The base URL without a trailing slash, as a string endpoint paths are appended to;
    /// made once here, not per request.
    let basePrefix: String

    /// The base URL as a DPoP proof names it (``DPoPTarget``: scheme and host lowercased, no
    /// default port) without a trailing slash: a request's `htu` is this and the endpoint's
    /// rendered path, so no URL is parsed per request.
    let htuPrefix: String
    /// The base URL's origin (``RedirectPolicy/origin(of:)``), which DPoP nonces are kept by.
    package let origin: String
    /// What signs DPoP proofs, on a server made with ``proving(_:everyRequest:)``.
    package internal(set) var proofing: DPoPProofing?
    /// Whether every request carries a proof, not only those with a DPoP-bound token.
    package internal(set) var provesEveryRequest = false

    /// `url` as text without its trailing slashes.
    static func prefix(of url: URL) -> String {
        prefix(of: url.absoluteString)
    }

    /// `text` without its trailing slashes.
    static func prefix(of text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

extension Server: CustomStringConvertible {
    /// For example `Server(https://api.example.com)`.
    public var description: String { "Server(\(baseURL.absoluteString))" }
}
