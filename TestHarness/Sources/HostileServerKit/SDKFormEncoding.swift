// `FormEncoding` is `package` in NetworkService. The SDK's root package compiles this kit as a
// target of its own (its Package.swift defines SDK_PACKAGE_MEMBER) and reaches it as a member of
// the package; the TestHarness package reaches it through a testable import, which every build
// of this kit allows (debug builds and `swift test` compile the SDK with testing enabled; no
// release product depends on the kit).
#if SDK_PACKAGE_MEMBER
import NetworkService
#else
@testable import NetworkService
#endif

/// The SDK's own form encoding, so that the kit looks for a secret in exactly the forms the SDK
/// writes it in (one encoder for both).
enum SDKFormEncoding {
    /// `text` as the SDK form-encodes it; `spaceAsPlus: false` writes a space as `%20`.
    static func encode(_ text: String, spaceAsPlus: Bool) -> String {
        FormEncoding.encode(text, spaceAsPlus: spaceAsPlus)
    }
}
