import NIOConcurrencyHelpers

/// Test mode's way to expire every access token issued so far without waiting, even tokens issued
/// in the same second as the call: each token carries the generation it was issued in (`gen`);
/// ``expireAll()`` starts a new generation and declares the older ones expired.
public final class AccessTokenGenerations: Sendable {
    private struct State {
        var current = 0
        var minimumValid = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Creates the counter at generation 0.
    public init() {}

    /// The generation new tokens get.
    public var current: Int { state.withLockedValue { $0.current } }

    /// Tokens of an older generation are expired.
    public var minimumValid: Int { state.withLockedValue { $0.minimumValid } }

    /// Expires every token issued so far.
    public func expireAll() {
        state.withLockedValue { state in
            state.current += 1
            state.minimumValid = state.current
        }
    }
}
