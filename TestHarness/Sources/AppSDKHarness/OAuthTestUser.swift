public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TokenStore

/// The person in front of the browser, for the conformance and CLI tests of the sign-in
/// flows against the OAuth test server (django-oauth-toolkit): signs in to Django with its
/// login form (cookie session, CSRF token), follows an authorization URL, approves or denies
/// DOT's consent form, and fetches where the server redirects (the SDK's loopback listener)
/// the way a browser does; for the device grant it enters the user code in DOT's device
/// views and approves or denies.
///
/// Every response is looked at: no redirect is followed behind its back, so an error page
/// or an unexpected redirect fails with a ``TestSetupError`` naming the step and the status.
/// Its errors never carry the password, a cookie, an authorization code or a state.
///
/// ```swift
/// let user = try OAuthTestUser.conformance()
/// // the URL the SDK's browser flow asked the front end to open:
/// let page = try await user.authorize(url, .approve)   // what the loopback listener answered
/// try await user.decide(userCode: authorization.userCode, .deny)
/// ```
public final class OAuthTestUser: Sendable {
    /// What the user decides on the consent page.
    public enum Decision: Sendable {
        /// "Authorize" / "Accept".
        case approve
        /// "Cancel" / "Deny".
        case deny
    }

    /// A page the browser got: its status and text.
    public struct Page: Sendable {
        /// The HTTP status.
        public let status: Int
        /// The body as text.
        public let body: String
        /// The `Location` header of a redirect, if any.
        public let location: String?
    }

    private let server: URL
    private let username: String
    private let password: String
    private let session: URLSession
    private let cookies = LockedValue<[String: String]>([:])

    /// A user of the server at `server` (its base URL) with this username and password.
    public init(server: URL, username: String, password: String) {
        self.server = server
        self.username = username
        self.password = password
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// The conformance server's user (``OAuthTestServer``).
    /// - Throws: ``TestSetupError`` when `APP_OAUTH_SERVER_URL` is not set.
    public static func conformance() throws -> OAuthTestUser {
        guard let url = OAuthTestServer.url.flatMap(URL.init(string:)) else {
            throw TestSetupError("APP_OAUTH_SERVER_URL is not set")
        }
        return OAuthTestUser(server: url, username: OAuthTestServer.username, password: OAuthTestServer.password)
    }

    // MARK: Signing in to Django

    /// Signs in with Django's login form (`/accounts/login/`): reads the CSRF token from the
    /// form, posts the username and password, and expects the redirect to `next`.
    public func signIn() async throws {
        _ = try await signIn(next: "/test/counters")
    }

    private func signIn(next: String) async throws -> String {
        let form = try await get(url("/accounts/login/?next=\(next.formEncoded)"), step: "the login form")
        guard form.status == 200 else { throw TestSetupError("the login form answered \(form.status)") }
        var fields = Self.hiddenFields(form.body)
        fields["username"] = username
        fields["password"] = password
        fields["next"] = next
        let result = try await post(url("/accounts/login/"), fields, step: "signing in")
        guard result.status == 302, let location = result.location, location == next else {
            throw TestSetupError("signing in to Django as \(username) answered \(result.status), not a redirect to the next page (wrong password?)")
        }
        return location
    }

    // MARK: The authorization-code flow

    /// Follows `authorizationURL` as a browser (signing in first if the server asks),
    /// approves or denies the consent form, and returns where the server redirects to: the
    /// client's redirect URI with the code (or error) and state. Nothing is fetched there.
    public func redirectTarget(of authorizationURL: URL, _ decision: Decision) async throws -> URL {
        var page = try await get(authorizationURL, step: "the authorization URL")
        var consentURL = authorizationURL
        if page.status == 302, let location = page.location, location.hasPrefix("/accounts/login/") {
            let next = URLComponents(string: location)?.queryItems?.first { $0.name == "next" }?.value ?? ""
            let back = try await signIn(next: next)
            consentURL = try url(back)
            page = try await get(consentURL, step: "the authorization URL after signing in")
        }
        if page.status == 302, let location = page.location, let target = URL(string: location), target.host != nil {
            return target  // the server redirected at once (an error for the client, say)
        }
        guard page.status == 200, page.body.contains("authorizationForm") else {
            throw TestSetupError("the authorization URL answered \(page.status) without the consent form: \(Self.summary(page.body))")
        }
        var fields = Self.hiddenFields(page.body)
        if decision == .approve { fields["allow"] = "Authorize" }
        let result = try await post(consentURL, fields, step: "the consent form")
        guard result.status == 302, let location = result.location, let target = URL(string: location) else {
            throw TestSetupError("the consent form answered \(result.status), not a redirect: \(Self.summary(result.body))")
        }
        return target
    }

    /// ``redirectTarget(of:_:)``, then fetches that target as the browser would (GET, with
    /// the cookies a browser sends to that host): what the SDK's loopback listener answered.
    public func authorize(_ authorizationURL: URL, _ decision: Decision) async throws -> Page {
        let target = try await redirectTarget(of: authorizationURL, decision)
        return try await fetch(target)
    }

    /// Fetches `url` as a browser (GET, its cookies for that host), no redirect followed.
    public func fetch(_ url: URL) async throws -> Page {
        try await get(url, step: "the redirect target")
    }

    // MARK: The device grant

    /// Enters `userCode` at DOT's device page (`/o/device/`, signing in first if needed),
    /// then accepts or denies on its confirmation page.
    public func decide(userCode: String, _ decision: Decision) async throws {
        var page = try await get(url("/o/device/"), step: "the device page")
        if page.status == 302, let location = page.location, location.hasPrefix("/accounts/login/") {
            _ = try await signIn(next: "/o/device/")
            page = try await get(url("/o/device/"), step: "the device page after signing in")
        }
        guard page.status == 200 else { throw TestSetupError("the device page answered \(page.status)") }
        var fields = Self.hiddenFields(page.body)
        fields["user_code"] = userCode
        let entered = try await post(url("/o/device/"), fields, step: "entering the user code")
        guard entered.status == 302, let confirm = entered.location else {
            throw TestSetupError("entering the user code answered \(entered.status), not the confirmation page: \(Self.summary(entered.body))")
        }
        let confirmation = try await get(url(confirm), step: "the device confirmation page")
        guard confirmation.status == 200 else {
            throw TestSetupError("the device confirmation page answered \(confirmation.status)")
        }
        var choice = Self.hiddenFields(confirmation.body)
        choice["action"] = decision == .approve ? "accept" : "deny"
        let result = try await post(url(confirm), choice, step: "accepting or denying the device")
        guard result.status == 302 else {
            throw TestSetupError("accepting or denying the device answered \(result.status): \(Self.summary(result.body))")
        }
    }

    // MARK: HTTP as a browser does it

    private func url(_ path: String) throws -> URL {
        guard let url = URL(string: path, relativeTo: server)?.absoluteURL else {
            throw TestSetupError("not a URL on the test server: \(path.prefix(80))")
        }
        return url
    }

    private func get(_ url: URL, step: String) async throws -> Page {
        try await send(URLRequest(url: url), step: step)
    }

    private func post(_ url: URL, _ fields: [String: String], step: String) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(fields.sorted { $0.key < $1.key }
            .map { "\($0.key.formEncoded)=\($0.value.formEncoded)" }.joined(separator: "&").utf8)
        return try await send(request, step: step)
    }

    /// One exchange, the cookies of `url`'s host sent and the ones set kept (cookies are not
    /// bound to a port, so a browser sends the server's cookies to the loopback listener too).
    private func send(_ request: URLRequest, step: String) async throws -> Page {
        var request = request
        guard let url = request.url, let host = url.host else { throw TestSetupError("\(step): no URL") }
        let jar = cookies.withLock { $0 }
        let mine = jar.filter { $0.key.hasPrefix(host + " ") }
            .map { "\($0.key.dropFirst(host.count + 1))=\($0.value)" }.sorted()
        if !mine.isEmpty { request.setValue(mine.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await exchange(request)
        } catch {
            throw TestSetupError("\(step) failed: \((error as NSError).localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw TestSetupError("\(step): not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        let set = HTTPCookie.cookies(withResponseHeaderFields: headers, for: url)
        if !set.isEmpty {
            cookies.withLock { jar in
                for cookie in set { jar[host + " " + cookie.name] = cookie.value }
            }
        }
        let location = headers.first { $0.key.lowercased() == "location" }?.value
        return Page(status: http.statusCode, body: String(decoding: data, as: UTF8.self), location: location)
    }

    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
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
    }

    /// The `<input type="hidden" name=… value=…>` fields of an HTML form (the CSRF token and,
    /// on DOT's consent page, the authorization request's parameters).
    static func hiddenFields(_ html: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = html[...]
        while let start = rest.range(of: "<input") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: ">") else { break }
            let tag = String(rest[..<end])
            rest = rest[end...]
            guard tag.contains("type=\"hidden\""), let name = attribute("name", in: tag) else { continue }
            fields[name] = attribute("value", in: tag).map(htmlUnescaped) ?? ""
        }
        return fields
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...]
        guard let end = value.firstIndex(of: "\"") else { return nil }
        return String(value[..<end])
    }

    private static func htmlUnescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A page's visible start, tags and CSRF tokens left out, for an error message.
    private static func summary(_ body: String) -> String {
        var text = ""
        var inTag = false
        for character in body {
            if character == "<" { inTag = true } else if character == ">" { inTag = false; text.append(" ") } else if !inTag { text.append(character) }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(200).description
    }
}

/// Hands every redirect back to the caller instead of following it.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

extension String {
    /// Percent-encoded for an `application/x-www-form-urlencoded` body or query.
    fileprivate var formEncoded: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return addingPercentEncoding(withAllowedCharacters: allowed)?.replacingOccurrences(of: "%20", with: "+") ?? self
    }
}
