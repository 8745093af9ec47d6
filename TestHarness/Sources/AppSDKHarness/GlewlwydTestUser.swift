public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TokenStore

/// The person in front of the browser for glewlwyd (``GlewlwydTestServer``). glewlwyd's login
/// page is a JavaScript application, so this does what that application does, through
/// glewlwyd's JSON API: signs in (`POST /api/auth/`, a session cookie), grants the client the
/// scopes asked for (`PUT /api/auth/grant/<client>`), then follows the authorization URL with
/// `g_continue` added (the login page's "continue": without it glewlwyd sends the browser back
/// to the login page even when everything is granted) and fetches where glewlwyd redirects
/// (the SDK's loopback listener). For the device grant it opens the verification URI with the
/// user code and `g_continue`.
///
/// Every response is looked at: no redirect is followed behind its back, so an error page or
/// an unexpected redirect fails with a ``TestSetupError`` naming the step and the status. Its
/// errors never carry the password, the session cookie, an authorization code or a state.
///
/// ```swift
/// let user = try GlewlwydTestUser.conformance()
/// // the URL the SDK's browser flow asked the front end to open:
/// let page = try await user.authorize(url)   // what the loopback listener answered
/// try await user.approve(verificationURI: shown.verificationURI, userCode: shown.userCode,
///                        clientID: "sdk-device", scopes: ["openid"])
/// ```
public final class GlewlwydTestUser: Sendable {
    /// A page the browser got: its status, text and `Location`.
    public typealias Page = OAuthTestUser.Page

    private let server: URL
    private let username: String
    private let password: String
    private let session: URLSession
    private let cookies = LockedValue<[String: String]>([:])

    /// A user of the glewlwyd server at `server` (its base URL) with this username and password.
    public init(server: URL, username: String, password: String) {
        self.server = server
        self.username = username
        self.password = password
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration, delegate: NoRedirectsDelegate(), delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// The conformance server's user (``GlewlwydTestServer``).
    /// - Throws: ``TestSetupError`` when `APP_GLEWLWYD_URL` is not set.
    public static func conformance() throws -> GlewlwydTestUser {
        guard let url = GlewlwydTestServer.url.flatMap(URL.init(string:)) else {
            throw TestSetupError("APP_GLEWLWYD_URL is not set")
        }
        return GlewlwydTestUser(server: url, username: GlewlwydTestServer.username, password: GlewlwydTestServer.password)
    }

    // MARK: What the login page does

    /// Signs in with the password (`POST /api/auth/`): glewlwyd sets its session cookie.
    public func signIn() async throws {
        let body = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        let page = try await send("POST", url("/api/auth/"), json: body, step: "signing in")
        guard page.status == 200 else {
            throw TestSetupError("signing in to glewlwyd as \(username) answered \(page.status) (wrong password?)")
        }
    }

    /// Grants `clientID` the `scopes` for this user (`PUT /api/auth/grant/<client>`), as the
    /// login page's consent step does.
    public func grant(clientID: String, scopes: [String]) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["scope": scopes.joined(separator: " ")])
        let page = try await send("PUT", url("/api/auth/grant/\(clientID.pathEncoded)"), json: body, step: "granting the scopes")
        guard page.status == 200 else {
            throw TestSetupError("granting \(scopes.joined(separator: " ")) to \(clientID) answered \(page.status): \(page.body.prefix(200))")
        }
    }

    // MARK: The authorization-code flow

    /// Signs in, grants the authorization URL's client its scopes, follows the URL with
    /// `g_continue`, and returns where glewlwyd redirects: the client's redirect URI with the
    /// code (or error) and state. Nothing is fetched there.
    public func redirectTarget(of authorizationURL: URL) async throws -> URL {
        let query = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let clientID = query.first(where: { $0.name == "client_id" })?.value else {
            throw TestSetupError("the authorization URL has no client_id")
        }
        let scopes = (query.first { $0.name == "scope" }?.value ?? "").split(separator: " ").map(String.init)
        try await signIn()
        try await grant(clientID: clientID, scopes: scopes)
        let page = try await send("GET", try Self.continued(authorizationURL), step: "the authorization URL")
        guard page.status == 302, let location = page.location, let target = URL(string: location) else {
            throw TestSetupError("the authorization URL answered \(page.status), not a redirect (a redirect URI glewlwyd does not know exactly?)")
        }
        guard target.host != server.host || target.port != server.port else {
            throw TestSetupError("glewlwyd sent the browser back to itself, not to the client: \(Self.prompt(of: target))")
        }
        return target
    }

    /// ``redirectTarget(of:)``, then fetches that target as the browser would (GET): what the
    /// SDK's loopback listener answered.
    public func authorize(_ authorizationURL: URL) async throws -> Page {
        try await send("GET", try await redirectTarget(of: authorizationURL), step: "the redirect target")
    }

    /// The authorization URL as the browser requests it without signing in or granting anything:
    /// glewlwyd's answer (a redirect to its login page, say, or 403 for a redirect URI it does
    /// not have).
    public func request(_ authorizationURL: URL) async throws -> Page {
        try await send("GET", try Self.continued(authorizationURL), step: "the authorization URL")
    }

    // MARK: The device grant

    /// Signs in, grants the device client `scopes`, and opens `verificationURI` with the user
    /// code and `g_continue` (what the login page does once the user typed the code): glewlwyd
    /// answers with a redirect to its login page's "device complete" prompt.
    public func approve(verificationURI: URL, userCode: String, clientID: String, scopes: [String]) async throws {
        try await signIn()
        try await grant(clientID: clientID, scopes: scopes)
        var parts = URLComponents(url: verificationURI, resolvingAgainstBaseURL: false)
        parts?.queryItems = [URLQueryItem(name: "code", value: userCode), URLQueryItem(name: "g_continue", value: nil)]
        guard let verification = parts?.url else { throw TestSetupError("not a URL: the verification URI") }
        let page = try await send("GET", verification, step: "the verification URI")
        let prompt = page.location.flatMap(URL.init(string:)).map(Self.prompt(of:)) ?? "none"
        guard page.status == 302, prompt == "deviceComplete" else {
            throw TestSetupError("the verification URI answered \(page.status) with prompt \(prompt), not deviceComplete")
        }
    }

    // MARK: HTTP as a browser does it

    /// `url` with the query item `g_continue` added.
    private static func continued(_ url: URL) throws -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw TestSetupError("not a URL: the authorization URL")
        }
        parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "g_continue", value: nil)]
        guard let continued = parts.url else { throw TestSetupError("not a URL: the authorization URL with g_continue") }
        return continued
    }

    /// The `prompt` of a redirect to glewlwyd's login page (`grant`, `deviceComplete`, …).
    private static func prompt(of url: URL) -> String {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "prompt" }?.value ?? "none"
    }

    private func url(_ path: String) throws -> URL {
        guard let url = URL(string: path, relativeTo: server)?.absoluteURL else {
            throw TestSetupError("not a URL on the glewlwyd server: \(path.prefix(80))")
        }
        return url
    }

    /// One exchange, the cookies of `url`'s host sent and the ones set kept (cookies are not
    /// bound to a port, so a browser sends glewlwyd's cookies to the loopback listener too).
    private func send(_ method: String, _ url: URL, json: Data? = nil, step: String) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        guard let host = url.host else { throw TestSetupError("\(step): no host") }
        let mine = cookies.withLock { $0 }.filter { $0.key.hasPrefix(host + " ") }
            .map { "\($0.key.dropFirst(host.count + 1))=\($0.value)" }.sorted()
        if !mine.isEmpty { request.setValue(mine.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }.resume()
            }
        } catch {
            throw TestSetupError("\(step) failed: \((error as NSError).localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw TestSetupError("\(step): not an HTTP response") }
        // `name=value; Expires=…; Domain=…; Path=/`: the name and value are what a browser sends back.
        if let setCookie = http.value(forHTTPHeaderField: "Set-Cookie"),
           let pair = setCookie.split(separator: ";").first, let equals = pair.firstIndex(of: "=") {
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(pair[pair.index(after: equals)...])
            cookies.withLock { $0[host + " " + name] = value }
        }
        return Page(status: http.statusCode, body: String(decoding: data, as: UTF8.self),
                    location: http.value(forHTTPHeaderField: "Location"))
    }
}

/// Hands every redirect back to the caller instead of following it.
private final class NoRedirectsDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

extension String {
    /// Percent-encoded for one path segment.
    fileprivate var pathEncoded: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
    }
}
