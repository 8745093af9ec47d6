import FuzzSupport
@testable import TokenStore

/// The AEAD opener under the encrypted stores (`Sodium.open`, XChaCha20-Poly1305), on bytes
/// the fuzzer chooses: 32 key bytes, 24 nonce bytes, an associated-data length byte, the
/// associated data, then the sealed bytes (shorter inputs are padded with zeros, so every
/// length from nothing up is tried, the nonce lengths too: the first byte can cut it short).
/// Invariants: random sealed bytes never open (a forgery would be a broken MAC or a bug in the
/// wrapper); sealing any plaintext and opening it gives it back; a sealed box with one bit
/// flipped does not open; an opener given the wrong nonce length says no, not a crash.
@main enum SealedBoxFuzzer {
    static func main() {
        try! Sodium.ensureReady()  // libsodium's allocator aborts before sodium_init
        runFuzzer(fuzz)
    }

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        var bytes = rest
        if bytes.count < 57 { bytes += [UInt8](repeating: 0, count: 57 - bytes.count) }
        guard let key = SecretBytes(copying: bytes[0..<32]) else { return }
        let nonceLength = selector & 0x80 == 0 ? Sodium.nonceByteCount : Int(selector & 0x1F)
        let nonce = bytes[32..<(32 + min(nonceLength, 24))]
        let adLength = min(Int(bytes[56]), bytes.count - 57)
        let associatedData = Array(bytes[57..<(57 + adLength)])
        let payload = bytes[(57 + adLength)...]
        let opened = Sodium.open(payload, associatedData: associatedData, nonce: nonce, key: key)
        if nonce.count != Sodium.nonceByteCount {
            require(opened == nil, "a nonce of \(nonce.count) bytes opened a box")
            return
        }
        if let opened {
            // Only a box this very key sealed opens: check it is one.
            let resealed = Sodium.seal(opened, associatedData: associatedData, nonce: Array(nonce), key: key)
            require(resealed == Array(payload), "a box opened that this key and nonce did not seal")
        }
        let plaintext = Array(payload)
        let sealed = Sodium.seal(plaintext, associatedData: associatedData, nonce: Array(nonce), key: key)
        require(sealed.count == plaintext.count + Sodium.tagByteCount, "a sealed box of the wrong length")
        require(Sodium.open(sealed[...], associatedData: associatedData, nonce: nonce, key: key) == plaintext,
                "a sealed box did not open to its plaintext")
        var flipped = sealed
        let index = Int(selector) % flipped.count
        flipped[index] ^= 1 << (selector % 8)
        require(Sodium.open(flipped[...], associatedData: associatedData, nonce: nonce, key: key) == nil,
                "a box with byte \(index) modified opened")
    }
}
