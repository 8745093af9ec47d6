#if canImport(Darwin)
import Foundation

extension KeychainTokenStore.BackgroundActivity {
    /// `ProcessInfo.performExpiringActivity(withReason:using:)`, which works in an app and in its
    /// extensions: the activity lasts until the section ends, and its expiry is time up.
    /// - Parameter reason: Why the process asks to keep running, for debugging.
    public static func expiringActivity(reason: String = "Keeping the session's tokens consistent") -> Self {
        Self { timeIsUp in
            let ended = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                if expired {
                    timeIsUp()
                } else {
                    ended.wait()  // the activity lasts as long as this block runs
                }
            }
            return { ended.signal() }
        }
    }
}
#endif
