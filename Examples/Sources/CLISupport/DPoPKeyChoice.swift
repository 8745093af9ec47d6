public import ArgumentParser
public import SessionEngine
#if !canImport(CryptoKit) && DPoPES256
import DPoPSwiftCrypto
#endif

/// The kind of DPoP key (RFC 9449) `sign-in --dpop` binds the session to (app-oauth keeps it in
/// its sign-in profile, so that every later command configures the engine the same way).
public enum DPoPKeyChoice: String, ExpressibleByArgument, CaseIterable, Codable, Sendable {
    /// Ed25519 (libsodium): on every platform.
    case eddsa
    /// P-256: CryptoKit on Apple platforms; swift-crypto on Linux (the `DPoPES256` trait).
    case es256

    /// The engine's kind of key for this choice.
    /// - Throws: ``ExitStatus/usage`` for `es256` in a build without an ES256 signer (Linux
    ///   without the `DPoPES256` trait), naming what is missing.
    public func keyKind() throws(CLIError) -> DPoPKeyKind {
        switch self {
        case .eddsa:
            return .eddsa
        case .es256:
            #if canImport(CryptoKit)
            return .es256
            #elseif DPoPES256
            return .swiftCryptoES256
            #else
            throw CLIError(.usage, "--dpop es256 needs an ES256 signer, and this \(Program.name) was built without one",
                           hint: "build Examples with its DPoPES256 trait (a default one: Integrations/DPoPSwiftCrypto, swift-crypto), or use --dpop eddsa")
            #endif
        }
    }

    /// The kinds of stored keys every command can sign with besides the SDK's own on this
    /// platform (EdDSA; ES256 on Apple platforms): swift-crypto's ES256 on Linux, where built.
    public static var alsoReads: [DPoPKeyKind] {
        #if !canImport(CryptoKit) && DPoPES256
        return [.swiftCryptoES256]
        #else
        return []
        #endif
    }
}

extension DPoPKeyChoice {
    /// The kind `--dpop` names (`nil` without it), checked for `sign-in`'s `validate()`: an
    /// unknown name, or es256 in a build without a signer for it, is a usage error naming why.
    public static func validated(_ name: String?) throws -> DPoPKeyChoice? {
        guard let name else { return nil }
        guard let choice = DPoPKeyChoice(rawValue: name) else {
            throw ValidationError("--dpop takes eddsa or es256, got \(name)")
        }
        do throws(CLIError) {
            _ = try choice.keyKind()
        } catch {
            throw ValidationError(error.message + (error.hint.map { " (\($0))" } ?? ""))
        }
        return choice
    }

    /// The help of `sign-in --dpop`.
    public static let help = ArgumentHelp(
        "Bind the session to a DPoP key of this kind (RFC 9449), kept in the store with the tokens; --dpop alone is eddsa. es256 on Linux needs the DPoPES256 trait (a default one).",
        valueName: "eddsa|es256")
}
