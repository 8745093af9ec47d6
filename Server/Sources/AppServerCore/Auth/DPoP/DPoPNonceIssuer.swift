import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The server's DPoP nonces (RFC 9449 §8, §9): a nonce is the base64url HMAC-SHA256, under a
/// secret of the server's, of the number of the time slot it was made in. Nothing is stored:
/// the nonce of the current slot and of the one before are accepted, so a nonce lives between
/// one and two slots, and every instance sharing the secret agrees.
struct DPoPNonceIssuer: Sendable {
    private let key: SymmetricKey
    /// Slots added to the clock's: test mode's `rotate-nonce` moves it on (shared by copies).
    private let slotShift = NIOLockedValueBox<Int64>(0)
    /// How long one slot lasts, in seconds.
    let lifetime: TimeInterval

    /// - Parameters:
    ///   - secret: the HMAC key; at least 32 bytes.
    ///   - lifetime: the length of a slot in seconds (at least 1).
    init(secret: Data, lifetime: TimeInterval) {
        key = SymmetricKey(data: secret)
        self.lifetime = max(1, lifetime)
    }

    /// The nonce to hand out at `now` (in every `DPoP-Nonce` field).
    func current(at now: Date) -> String {
        nonce(forSlot: slot(at: now))
    }

    /// Whether `nonce` is the current slot's or the previous one's.
    func accepts(_ nonce: String, at now: Date) -> Bool {
        let slot = slot(at: now)
        let presented = Data(nonce.utf8)
        return [slot, slot - 1].contains { candidate in
            // Compared in constant time: the expected value is a MAC.
            let expected = Data(self.nonce(forSlot: candidate).utf8)
            return expected.count == presented.count && zip(expected, presented).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    /// Test mode: makes every nonce handed out so far stale at once, as if two slots had
    /// passed (one would leave the current nonce accepted as the previous one).
    func rotate() {
        slotShift.withLockedValue { $0 += 2 }
    }

    private func slot(at now: Date) -> Int64 {
        Int64((now.timeIntervalSince1970 / lifetime).rounded(.down)) + slotShift.withLockedValue { $0 }
    }

    private func nonce(forSlot slot: Int64) -> String {
        var bigEndian = slot.bigEndian
        let message = withUnsafeBytes(of: &bigEndian) { Data($0) }
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
}
