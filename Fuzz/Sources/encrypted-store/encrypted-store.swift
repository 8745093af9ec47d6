import FuzzSupport
@testable import TokenStore

/// The encrypted store's decoder (`EncryptedFileFormat.parse`, the checks of the header, the
/// version, the key derivation and its bounds, the length; then the AEAD and the plain JSON
/// inside), with a fixed raw key so that the fuzzer meets the header and length checks
/// themselves. The first byte picks the mode:
/// - 0–127: the rest is the sealed bytes, opened unbound and bound (`CredentialsSealer`);
/// - 128–255: the rest is the plaintext JSON, sealed with the fixed key (`EncryptedFileCodec`)
///   and opened: the fuzzer reaches the JSON reader behind the MAC.
/// Invariants: opening fails only as `.unreadable`, `.decryptionFailed` or
/// `.unsupportedFormatVersion`, naming the location; random bytes never open (the MAC holds);
/// what opens seals and opens again to equal credentials; JSON sealed and opened reads as the
/// plain store reads it.
@main enum EncryptedStoreFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let key = (0..<32).map { UInt8($0 &* 7 &+ 3) }
    static let location = "fuzz/encrypted-store"
    static let sealer = runBlocking { try! await CredentialsSealer.encrypted(key: .rawKey(key), location: location) }
    static let codec = runBlocking {
        try! await EncryptedFileCodec.make(key: .rawKey(key), path: location, allowsInsecurePermissions: false, existingBytes: { nil })
    }
    static let plain = CredentialsSealer.plain(location: location)

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        runBlocking {
            if selector < 128 {
                await open(rest)
            } else {
                await sealAndOpen(json: rest)
            }
        }
    }

    static func open(_ bytes: [UInt8]) async {
        do {
            let credentials = try await sealer.open(bytes)
            // Only bytes sealed with the key open: the seeds are such files, and a mutation
            // that keeps the MAC valid is a forgery.
            await requireRoundTrip(credentials, through: sealer)
        } catch {
            require(readingErrorKinds.contains(error.kind), "failed with \(error.kind): \(error)")
            require(error.path == location, "the error does not name the location")
        }
        do {
            let credentials = try await sealer.open(bytes, boundTo: "fuzz-binding", acceptingUnbound: true)
            await requireRoundTrip(credentials, through: sealer, binding: "fuzz-binding")
        } catch {
            require(readingErrorKinds.contains(error.kind), "bound: failed with \(error.kind): \(error)")
        }
    }

    static func sealAndOpen(json: [UInt8]) async {
        let sealed: [UInt8]
        do throws(TokenStoreError) { sealed = try codec.encode(json) } catch {
            require(false, "sealing bytes failed: \(error)")
            return
        }
        let encrypted: Result<Credentials, TokenStoreError>
        do throws(TokenStoreError) { encrypted = .success(try await sealer.open(sealed)) } catch { encrypted = .failure(error) }
        let clear: Result<Credentials, TokenStoreError>
        do throws(TokenStoreError) { clear = .success(try await plain.open(json)) } catch { clear = .failure(error) }
        switch (encrypted, clear) {
        case let (.success(a), .success(b)):
            require(a == b, "the encrypted and the plain reader read other credentials")
        case let (.failure(a), .failure(b)):
            require(a.kind == b.kind, "the encrypted reader failed with \(a.kind), the plain one with \(b.kind)")
        case let (.failure(error), .success):
            // The plain reader refuses bytes that start with the encrypted magic; inside the
            // envelope, JSON is read the same way.
            require(false, "the encrypted reader failed (\(error.kind)) where the plain one read")
        case (.success, .failure):
            require(json.starts(with: CredentialsFile.encryptedMagic), "the plain reader failed where the encrypted one read")
        }
    }
}
