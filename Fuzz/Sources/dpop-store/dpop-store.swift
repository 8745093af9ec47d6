import Foundation
import FuzzSupport
@testable import TokenStore

/// Format version 2 of the store (`CredentialsFile.decode`, `StoredDPoPKey`: the DPoP key beside
/// the tokens), through the public `CredentialsSealer.plain`.
/// Input: a selector byte; even: the rest is a whole file; odd: the rest is the `dpopKey` member,
/// put into a fixed version 2 file (so the fuzzer spends its time in the key's reader).
/// Invariants: bytes open or fail `.unreadable` / `.unsupportedFormatVersion` naming the
/// location; an error never contains the input's `d`; what opens with a key is version 2 and
/// seals and opens again to equal credentials; a software key's `jwk` is its `d`'s public key
/// (EdDSA, libsodium); nothing printed about opened credentials contains `d`.
@main enum DPoPStoreFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let sealer = CredentialsSealer.plain(location: "fuzz/dpop-store")

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let bytes = selector & 1 == 0 ? rest : Array(
            #"{"credentials":{"accessToken":"a","accessTokenType":"DPoP","dpopKey":"#.utf8) + rest
            + Array(#","memberID":"m","refreshToken":"r"},"version":2}"#.utf8)
        let d = privateKey(in: bytes)
        runBlocking {
            do throws(TokenStoreError) {
                let credentials = try await sealer.open(bytes)
                if let key = credentials.dpopKey {
                    let sealed = String(decoding: (try? sealer.seal(credentials)) ?? [], as: UTF8.self)
                    require(sealed.hasSuffix(#""version":2}"#), "a key was sealed in another version")
                    if case let .privateKey(secret) = key.material {
                        require(secret.count == 32, "a software key of \(secret.count) bytes opened")
                        let bytes = secret.withUnsafeBytes { Array($0) }
                        if key.algorithm == "EdDSA", let derived = StoredDPoPKey.publicKey(of: bytes, algorithm: "EdDSA") {
                            require(derived == key.coordinates, "an EdDSA jwk that is not d's public key opened")
                        }
                        let printed = "\(credentials) \(String(reflecting: credentials)) \(key)"
                        var dumped = ""
                        dump(credentials, to: &dumped)
                        let encoded = base64URL(bytes)
                        require(!printed.contains(encoded) && !dumped.contains(encoded), "a printed key shows d")
                    }
                }
                await requireRoundTrip(credentials, through: sealer)
            } catch {
                require([.unreadable, .unsupportedFormatVersion].contains(error.kind), "failed with \(error.kind)")
                require(error.path == "fuzz/dpop-store", "the error does not name the location")
                if let d, d.count >= 8 {
                    require(!error.description.contains(d), "the error shows d")
                }
            }
        }
    }

    /// The `d` of the input's `dpopKey`, if it is JSON with one.
    static func privateKey(in bytes: [UInt8]) -> String? {
        guard let file = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let credentials = file["credentials"] as? [String: Any],
              let key = credentials["dpopKey"] as? [String: Any] else { return nil }
        return key["d"] as? String
    }
}
