import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The proofs seen lately (RFC 9449 §11.1): a proof's `jti` with its `htu`, kept until its
/// `iat` leaves the accepted window, after which the window check refuses the proof anyway.
/// Bounded: when full of live entries it refuses new proofs (the client retries with a fresh
/// nonce) rather than forgetting one that could then be replayed.
final class DPoPReplayCache: Sendable {
    private struct State {
        var expiries: [SHA256Digest: Date] = [:]
        var nextSweep = Date.distantPast
    }

    private let state = NIOLockedValueBox(State())
    /// The most proofs kept at once.
    let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The number of proofs kept now.
    var count: Int { state.withLockedValue { $0.expiries.count } }

    /// Records the proof `jti` for `target`, kept until `expiry`. Throws ``DPoPRefusal/replayed``
    /// when it was seen and has not expired, ``DPoPRefusal/replayCacheFull`` when no room is left.
    func record(jti: String, target: String, expiry: Date, now: Date) throws(DPoPRefusal) {
        // One key for the pair; the 0 byte cannot occur in either (both are checked text).
        let key = SHA256.hash(data: Data((jti + "\u{0}" + target).utf8))
        let outcome: DPoPRefusal? = state.withLockedValue { state in
            if let seen = state.expiries[key], seen > now { return .replayed }
            if state.expiries.count >= capacity || now >= state.nextSweep {
                state.expiries = state.expiries.filter { $0.value > now }
                state.nextSweep = now.addingTimeInterval(1)
            }
            guard state.expiries.count < capacity else { return .replayCacheFull }
            state.expiries[key] = expiry
            return nil
        }
        if let outcome { throw outcome }
    }
}
