import FuzzSupport
import TokenStore

/// The plain store's decoder (`CredentialsFile.decode`, the JSON `FileTokenStore` writes),
/// through the public `CredentialsSealer.plain`.
/// Invariants: bytes either open or fail as `.unreadable` / `.unsupportedFormatVersion` naming
/// the location; what opens seals and opens again to equal credentials; the bound opener of a
/// plain sealer reads the same bytes the same way.
@main enum PlainStoreFuzzer {
    static func main() { runFuzzer(fuzz) }

    static let sealer = CredentialsSealer.plain(location: "fuzz/plain-store")

    static func fuzz(_ input: FuzzInput) {
        let bytes = input.bytes
        runBlocking {
            let opened: Result<Credentials, TokenStoreError>
            do throws(TokenStoreError) { opened = .success(try await sealer.open(bytes)) } catch { opened = .failure(error) }
            let bound: Result<Credentials, TokenStoreError>
            do throws(TokenStoreError) { bound = .success(try await sealer.open(bytes, boundTo: "fuzz", acceptingUnbound: false)) } catch { bound = .failure(error) }
            switch (opened, bound) {
            case let (.success(credentials), .success(same)):
                require(credentials == same, "the bound opener read other credentials")
                await requireRoundTrip(credentials, through: sealer)
            case let (.failure(error), .failure(same)):
                require([.unreadable, .unsupportedFormatVersion].contains(error.kind), "failed with \(error.kind)")
                require(error.kind == same.kind, "the bound opener failed otherwise: \(same.kind)")
                require(error.path == "fuzz/plain-store", "the error does not name the location")
            default:
                require(false, "the two openers disagree")
            }
        }
    }
}
