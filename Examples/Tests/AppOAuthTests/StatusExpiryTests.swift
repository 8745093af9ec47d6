@testable import app_oauth
import Foundation
import Testing

/// Issue 33, item 11: status counts seconds to any date without trapping.
@Suite("app-oauth status's expiry line")
struct StatusExpiryTests {
    @Test("dates ±1e300 s away, infinite or NaN: bounded whole seconds, or unknown")
    func absurdDates() {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        #expect(OAuthStatusCommand.wholeSeconds(until: Date(timeIntervalSinceReferenceDate: 1e300), from: now) == 1_000_000_000_000)
        #expect(OAuthStatusCommand.wholeSeconds(until: Date(timeIntervalSinceReferenceDate: -1e300), from: now) == -1_000_000_000_000)
        #expect(OAuthStatusCommand.wholeSeconds(until: Date(timeIntervalSinceReferenceDate: .infinity), from: now) == 1_000_000_000_000)
        #expect(OAuthStatusCommand.wholeSeconds(until: Date(timeIntervalSinceReferenceDate: .nan), from: now) == nil)
        #expect(OAuthStatusCommand.wholeSeconds(until: now.addingTimeInterval(299.6), from: now) == 300)
        #expect(OAuthStatusCommand.expiryLine(Date(timeIntervalSinceReferenceDate: 1e300), now: now).contains("good for"))
        #expect(OAuthStatusCommand.expiryLine(Date(timeIntervalSinceReferenceDate: -1e300), now: now).contains("expired"))
        #expect(OAuthStatusCommand.expiryLine(Date(timeIntervalSinceReferenceDate: .nan), now: now).contains("unknown"))
    }
}
