import ArgumentParser
import CLISupport
import SessionEngine

/// `--dpop eddsa|es256`: the session is bound to a DPoP key of this kind (RFC 9449), made at
/// sign-in and kept in the shared store with the tokens; every worker signs with that stored key.
struct DPoPOption: ParsableArguments {
    @Option(help: "Bind the shared session to a DPoP key of this kind (the server must accept DPoP: --dpop required).")
    var dpop: DPoPKeyChoice?

    func validate() throws {
        _ = try DPoPKeyChoice.validated(dpop?.rawValue)
    }

    /// The option again, for a worker.
    var arguments: [String] { dpop.map { ["--dpop", $0.rawValue] } ?? [] }

    /// The engine's DPoP configuration: `nil` for a bearer session. A worker never signs in,
    /// so for it the configuration only says which stored keys it can sign with.
    func configuration() throws -> DPoPConfiguration? {
        guard let dpop else { return nil }
        return DPoPConfiguration(keys: try dpop.keyKind(), alsoReads: DPoPKeyChoice.alsoReads)
    }
}
