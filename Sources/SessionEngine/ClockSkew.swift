import Foundation

/// The offset between the server's clock and this device's, measured from the `Date` header of
/// token responses (``Tokens/serverDate``), bounded and smoothed. The service adds it to this
/// device's time when it reads a server time (``Tokens/expiresAt``, a JWT's `exp`) so that a
/// device clock minutes off neither refreshes too late (401s) nor too early.
///
/// A `Date` header has whole seconds, so an offset within ±1 s is no evidence of skew and
/// changes nothing; one beyond a day is absurd (a broken header, a server in 1970) and is
/// ignored; the others are smoothed (each new measure moves the offset a quarter of the way).
enum ClockSkew {
    /// Offsets beyond this, in seconds, are ignored.
    static let maximum: TimeInterval = 86_400
    /// Offsets within this, in seconds, are the `Date` header's resolution, not skew.
    static let resolution: TimeInterval = 1
    /// The weight of a new measure.
    static let weight = 0.25

    /// The offset measured from a response: the server's `Date` (`serverDate`) less this
    /// device's time when the request was sent; `nil` when absurd.
    static func measure(serverDate: Date, requestedAt: Date) -> TimeInterval? {
        let offset = serverDate.timeIntervalSince(requestedAt)
        guard offset.isFinite, abs(offset) <= maximum else { return nil }
        return offset
    }

    /// `previous` (if any) moved towards `measured`.
    static func smoothed(_ previous: TimeInterval?, adding measured: TimeInterval) -> TimeInterval {
        guard let previous else { return measured }
        return previous + (measured - previous) * weight
    }

    /// The offset to add to this device's time: 0 within the header's resolution.
    static func applied(_ offset: TimeInterval?) -> TimeInterval {
        guard let offset, abs(offset) > resolution else { return 0 }
        return offset
    }
}
