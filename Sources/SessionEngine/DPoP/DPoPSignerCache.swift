import NetworkService
import TokenStore

/// The signers of the DPoP keys this process signs with, by key: a key's signer is made once
/// (from the first kind that can use it) and shared by every service in the process. Small and
/// bounded: beyond ``capacity`` keys, the one used longest ago is dropped.
final class DPoPSignerCache: Sendable {
    /// The process's cache.
    static let shared = DPoPSignerCache()
    /// The most keys kept.
    static let capacity = 16

    private struct Entry: Sendable {
        let key: DPoPKey
        let signer: any DPoPSigner
    }

    /// Most recently used last.
    private let entries = LockedValue<[Entry]>([])

    /// The signer of `key`, made by the first of `kinds` of its algorithm that can use it.
    /// - Throws: ``SessionError/Kind/dpopKeyUnusable`` naming the algorithm and what to configure
    ///   when none can; the last kind's error is its `underlying`.
    func signer(for key: DPoPKey, kinds: [DPoPKeyKind]) throws(SessionError) -> any DPoPSigner {
        let thumbprint = key.thumbprint
        if let signer = entries.withLock({ entries -> (any DPoPSigner)? in
            guard let index = entries.lastIndex(where: { $0.key.thumbprint == thumbprint && $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.signer
        }) {
            return signer
        }
        var lastError: (any Error)?
        for kind in kinds where kind.algorithm == key.algorithm {
            do {
                let signer = try kind.signer(for: key)
                guard signer.algorithm == key.algorithm, signer.publicKey == key.publicKey else {
                    lastError = DPoPKeyError("a kind of key of the same algorithm made a signer of another key")
                    continue
                }
                entries.withLock { entries in
                    if entries.count >= Self.capacity { entries.removeFirst() }
                    entries.append(Entry(key: key, signer: signer))
                }
                return signer
            } catch {
                lastError = error
            }
        }
        throw Self.unusable(key, underlying: lastError)
    }

    /// How many keys are kept.
    var count: Int { entries.withLock { $0.count } }

    /// The error for a stored key no kind could sign with.
    static func unusable(_ key: DPoPKey, underlying: (any Error)?) -> SessionError {
        let algorithm = Redaction.printable(String(key.algorithm.prefix(16)))
        var advice = "add a DPoPKeyKind of \(algorithm) that can use it to `Configuration.dpop.alsoReads`"
        if key.algorithm == "ES256", key.reference == nil {
            advice += " (on Linux: `DPoPKeyKind.swiftCryptoES256` from Integrations/DPoPSwiftCrypto)"
        }
        return SessionError(.dpopKeyUnusable, underlying: underlying,
                            detail: "the session's DPoP key is \(algorithm) (\(key.material.kind)) and no kind of key "
                                + "configured here can sign with it: \(advice)")
    }
}
