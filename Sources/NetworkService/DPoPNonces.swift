import Foundation

/// The latest DPoP nonce (RFC 9449 §8, §9) each server gave, by origin (scheme, host and port,
/// as ``RedirectPolicy/origin(of:)`` writes it): a nonce is valid only where it was issued, so
/// an authorization server's and a resource server's are kept apart.
///
/// Every `DPoP-Nonce` header updates it (§8.2: a server may send the next nonce with any
/// answer). A value that is not a nonce (empty, longer than ``maximumLength``, or with a
/// character outside NQCHAR: `%x21 / %x23-5B / %x5D-7E`, so no space, quote, backslash, control
/// character or non-ASCII) is dropped: it could otherwise break the proof's JSON or a header.
/// At most `capacity` origins are kept; a new one beyond that replaces the one updated longest
/// ago. Nonces live in memory only, never in a store, a record or an error.
package final class DPoPNonces: @unchecked Sendable {
    /// The process's nonces, shared by every server value and session.
    package static let shared = DPoPNonces()

    /// The response header that carries a nonce.
    package static let headerName = "DPoP-Nonce"
    /// The longest nonce kept, in bytes; RFC 9449 sets no limit, servers send a few dozen.
    package static let maximumLength = 2_048
    /// The most origins kept by default.
    package static let defaultCapacity = 64

    /// The most origins kept.
    package let capacity: Int

    // `@unchecked Sendable`: every access to the entries holds the lock.
    private let lock = NSLock()
    private var entries: [String: (nonce: String, updated: UInt64)] = [:]
    private var updates: UInt64 = 0

    /// An empty set of nonces keeping at most `capacity` origins (at least 1).
    package init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Whether `value` can be sent as a nonce: 1 to ``maximumLength`` NQCHAR bytes.
    package static func isUsable(_ value: String) -> Bool {
        var count = 0
        for byte in value.utf8 {
            guard byte >= 0x21, byte <= 0x7E, byte != 0x22, byte != 0x5C else { return false }
            count += 1
        }
        return count > 0 && count <= maximumLength
    }

    /// The latest nonce of `origin`, if it gave one.
    package func nonce(forOrigin origin: String) -> String? {
        lock.withLock { entries[origin]?.nonce }
    }

    /// Keeps `nonce` as the latest of `origin`; returns `false`, keeping nothing, when it is not
    /// usable (``isUsable(_:)``).
    @discardableResult
    package func remember(_ nonce: String, forOrigin origin: String) -> Bool {
        guard Self.isUsable(nonce) else { return false }
        lock.withLock {
            updates &+= 1
            if entries[origin] == nil, entries.count >= capacity,
               let oldest = entries.min(by: { $0.value.updated < $1.value.updated })?.key {
                entries[oldest] = nil
            }
            entries[origin] = (nonce, updates)
        }
        return true
    }

    /// Keeps the `DPoP-Nonce` of `response`, if it has a usable one, as the latest of `origin`.
    package func remember(from response: HTTPResponse, origin: String) {
        guard let nonce = response.value(forHeaderField: Self.headerName) else { return }
        remember(nonce, forOrigin: origin)
    }

    /// How many origins have a nonce.
    package var count: Int {
        lock.withLock { entries.count }
    }
}
