import AppSDKTesting
import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue #21, item 3: when the expiry comes only from a JWT's `exp` (a server time), the
/// offset between this device's clock and the server's `Date` header is applied; bounded and
/// smoothed, and a missing or absurd `Date` changes nothing.
@Suite("A device clock that disagrees with the server's is corrected by the Date header")
struct ClockSkewTests {
    let clock = TestClock()

    /// A JWT whose only time claim is `exp`.
    static func jwt(exp: Date) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"HS256","typ":"JWT"}"#) + "." + encode(#"{"sub":"kim","exp":\#(Int(exp.timeIntervalSince1970))}"#) + ".c2ln"
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Refreshes once against a server whose clock is `serverAhead` seconds ahead of the device's
    /// (its `Date` header says `dateHeader`, by default its own time) and whose new access token
    /// expires 600 s after the server's now; returns how long the device thinks it lives.
    func refreshedLifetime(serverAhead: TimeInterval, dateHeader: String?? = nil) async throws -> TimeInterval? {
        let clock = clock
        let transport = TestTransport { _ in
            let serverNow = clock.now.addingTimeInterval(serverAhead)
            let access = Self.jwt(exp: serverNow.addingTimeInterval(600))
            var headers: [String: String] = [:]
            if let date = dateHeader ?? Self.httpDate(serverNow) { headers["Date"] = date }
            return .json(200, #"{"access":"\#(access)","refresh":"r2"}"#, headers: headers)
        }
        var configuration = SessionService.Configuration.json(
            JSONTokenRefresh(path: "/token/refresh", refreshTokenField: "refresh", accessTokenKey: "access",
                             refreshTokenKey: "refresh", expiresInKey: nil))
        configuration.now = { clock.now }
        let store = InMemoryTokenStore(credentials: Credentials(accessToken: AccessToken("a1"), refreshToken: "r1",
                                                                accessTokenExpiresAt: clock.now.addingTimeInterval(-1), accountID: "kim"))
        let service = SessionService(server: try Server(baseURL: "https://api.example.com", transport: transport),
                                     tokenStore: store, configuration: configuration)
        _ = try? await service.request { _, _ in () }
        let stored = try #require(try await store.load())
        #expect(stored.refreshToken == "r2")
        return stored.accessTokenExpiresAt?.timeIntervalSince(clock.now)
    }

    @Test("a server clock 5 minutes ahead: the token's 600 s by the server's clock are 600 s here, not 900")
    func serverAhead() async throws {
        let lifetime = try #require(try await refreshedLifetime(serverAhead: 300))
        #expect(abs(lifetime - 600) <= 1, "\(lifetime)")
    }

    @Test("a server clock 5 minutes behind: 600 s here, not 300")
    func serverBehind() async throws {
        let lifetime = try #require(try await refreshedLifetime(serverAhead: -300))
        #expect(abs(lifetime - 600) <= 1, "\(lifetime)")
    }

    @Test("no Date header, an unreadable one or an absurd one (two days off) changes nothing: exp is read on this device's clock",
          arguments: [nil, "yesterday-ish", httpDate(Date(timeIntervalSince1970: 1_795_860_000 + 2 * 86_400))] as [String?])
    func missingOrAbsurdDate(header: String?) async throws {
        let lifetime = try #require(try await refreshedLifetime(serverAhead: 300, dateHeader: .some(header)))
        #expect(abs(lifetime - 900) <= 1, "\(lifetime)")
    }

    @Test("offsets are bounded and smoothed: within the header's second nothing is applied; a new measure moves a quarter of the way")
    func boundedAndSmoothed() {
        let now = Date(timeIntervalSince1970: 1_795_860_000)
        #expect(ClockSkew.measure(serverDate: now.addingTimeInterval(90_000), requestedAt: now) == nil)
        #expect(ClockSkew.measure(serverDate: now.addingTimeInterval(-300), requestedAt: now) == -300)
        #expect(ClockSkew.applied(0.9) == 0)
        #expect(ClockSkew.applied(nil) == 0)
        #expect(ClockSkew.applied(-300) == -300)
        #expect(ClockSkew.smoothed(nil, adding: 100) == 100)
        #expect(ClockSkew.smoothed(100, adding: 200) == 125)
        var state = SessionState()
        #expect(state.noteClockOffset(nil) == nil)
        #expect(state.noteClockOffset(40) == 40)
        #expect(state.noteClockOffset(nil) == 40)
        #expect(state.noteClockOffset(0) == 30)
    }

    @Test("the response's Date header is read as an IMF-fixdate")
    func dateHeader() {
        #expect(HTTPResponse(statusCode: 200, headerFields: ["date": "Tue, 24 Nov 2026 03:55:47 GMT"]).date
                == Date(timeIntervalSince1970: 1_795_492_547))
        #expect(HTTPResponse(statusCode: 200, headerFields: ["Date": "soon"]).date == nil)
        #expect(HTTPResponse(statusCode: 200).date == nil)
    }
}
