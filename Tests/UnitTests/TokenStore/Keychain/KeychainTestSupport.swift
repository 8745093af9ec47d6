import Foundation
import TokenStore

/// Helpers shared by the Keychain store's tests.
enum KeychainTesting {
    /// A service name no other test uses (stores without a lock file share a lock and a change
    /// marker per item across the process).
    static func uniqueService() -> String {
        "com.example.app.test-\(UUID().uuidString)"
    }

    /// The item a store of `service` keeps, as the in-memory keychain sees it.
    static func item(_ service: String, account: String = "credentials", accessGroup: String? = nil, dataProtection: Bool = true) -> KeychainItem {
        KeychainItem(service: service, account: account, accessGroup: accessGroup, usesDataProtectionKeychain: dataProtection)
    }
}

/// A background activity that records when it begins and ends, and lets the test say time is up.
final class RecordedActivity: Sendable {
    private struct State {
        var begun = 0
        var ended = 0
        var timeIsUp: (@Sendable () -> Void)?
    }

    private let state = LockedValue(State())
    /// Whether `begin` says time is up before it returns (a process about to be suspended).
    let expiresAtOnce: Bool

    init(expiresAtOnce: Bool = false) {
        self.expiresAtOnce = expiresAtOnce
    }

    var activity: KeychainTokenStore.BackgroundActivity {
        KeychainTokenStore.BackgroundActivity { [self] timeIsUp in
            state.withLock {
                $0.begun += 1
                $0.timeIsUp = timeIsUp
            }
            if expiresAtOnce { timeIsUp() }
            return { [self] in state.withLock { $0.ended += 1 } }
        }
    }

    var begun: Int { state.withLock { $0.begun } }
    var ended: Int { state.withLock { $0.ended } }

    /// Says time is up to the activity begun last.
    func expire() {
        state.withLock { $0.timeIsUp }?()
    }
}
