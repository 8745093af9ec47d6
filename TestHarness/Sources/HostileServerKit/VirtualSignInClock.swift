import Foundation
import OAuthSignIn
import TokenStore

/// A sign-in clock that waits without sleeping: its time is the real time plus every wait,
/// so a device sign-in polls at once however long the server asks it to wait, and the kit
/// can tell how long it would have waited.
final class VirtualSignInClock: Sendable {
    private let waited = LockedValue<Double>(0)

    /// The seconds waited so far.
    var secondsWaited: Double { waited.withLock { $0 } }

    var clock: SignInClock {
        SignInClock(now: { [waited] in Date().addingTimeInterval(waited.withLock { $0 }) },
                    sleep: { [waited] duration in
                        let (seconds, attoseconds) = duration.components
                        waited.withLock { $0 += Double(seconds) + Double(attoseconds) / 1e18 }
                        try await Task.sleep(for: .milliseconds(2))
                    })
    }
}
