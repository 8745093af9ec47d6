import Foundation

/// Whether and how the server speaks DPoP (RFC 9449): sender-constrained tokens bound to a key
/// the client proves it holds on each request. Off by default: every route then behaves as it
/// did before DPoP, byte for byte.
public struct DPoPSettings: Sendable, Equatable {
    /// What the server does with DPoP proofs.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// DPoP headers are ignored; every session is a bearer session.
        case off
        /// A sign-in made with a valid proof starts a DPoP-bound session; one without starts a
        /// bearer session, and bearer tokens keep working.
        case allowed
        /// Sign-ins need a proof, and resources refuse `Bearer` tokens.
        case required
    }

    /// The algorithm names the server can verify (`--dpop-algs`).
    public static let supportedAlgorithms = ["ES256", "EdDSA"]

    /// Off, allowed or required.
    public var mode: Mode
    /// The algorithms accepted, in the order challenges list them (`algs`).
    public var algorithms: [String]
    /// Whether proofs must carry a nonce the server issued (RFC 9449 §8, §9).
    public var requiresNonce: Bool
    /// How long one nonce slot lasts; a nonce is accepted for one to two slots.
    public var nonceLifetime: Duration
    /// How far in the past a proof's `iat` may be.
    public var maximumProofAge: Duration
    /// How far in the future a proof's `iat` may be (the client's clock running ahead).
    public var maximumClockSkew: Duration

    /// Creates settings; the defaults are DPoP off, both algorithms, no nonce, a 60-second
    /// nonce slot and an `iat` window from 60 seconds ago to 5 seconds ahead.
    public init(
        mode: Mode = .off, algorithms: [String] = Self.supportedAlgorithms, requiresNonce: Bool = false,
        nonceLifetime: Duration = .seconds(60), maximumProofAge: Duration = .seconds(60),
        maximumClockSkew: Duration = .seconds(5)
    ) {
        self.mode = mode
        self.algorithms = algorithms
        self.requiresNonce = requiresNonce
        self.nonceLifetime = nonceLifetime
        self.maximumProofAge = maximumProofAge
        self.maximumClockSkew = maximumClockSkew
    }

    /// Allowed nonce slot lengths, in seconds.
    public static let nonceLifetimeRange = 1...3600
    /// Allowed proof ages (the past side of the `iat` window), in seconds.
    public static let proofAgeRange = 1...3600
    /// Allowed clock skews (the future side of the `iat` window), in seconds.
    public static let clockSkewRange = 0...300

    /// Checks the values. - Throws: ``ConfigurationError`` naming the first bad value.
    func validate() throws(ConfigurationError) {
        guard !algorithms.isEmpty else { throw .invalid("dpop algs must name at least one of \(Self.supportedAlgorithms.joined(separator: ","))") }
        for algorithm in algorithms where !Self.supportedAlgorithms.contains(algorithm) {
            throw .invalid("dpop algs: unknown algorithm (supported: \(Self.supportedAlgorithms.joined(separator: ",")))")
        }
        guard Set(algorithms).count == algorithms.count else { throw .invalid("dpop algs: an algorithm is named twice") }
        for (duration, name, range) in [
            (nonceLifetime, "dpop nonce lifetime", Self.nonceLifetimeRange),
            (maximumProofAge, "dpop iat window (past)", Self.proofAgeRange),
            (maximumClockSkew, "dpop iat window (future)", Self.clockSkewRange),
        ] {
            let (whole, fraction) = duration.components
            guard fraction == 0, whole >= Int64(range.lowerBound), whole <= Int64(range.upperBound) else {
                throw .invalid("\(name) must be \(range.lowerBound)...\(range.upperBound) whole seconds, got \(duration)")
            }
        }
    }

    /// Reads the command line's DPoP options (each `nil` when not given: the default).
    /// - Parameters:
    ///   - mode: `off`, `allowed` or `required`.
    ///   - algorithms: comma-separated algorithm names, e.g. `ES256,EdDSA`.
    ///   - nonce: `off` or `required`.
    ///   - nonceLifetime: seconds, e.g. `60`.
    ///   - iatWindow: `PAST/FUTURE` in seconds, e.g. `60/5`.
    /// - Throws: ``ConfigurationError`` naming the option; the values are then checked by
    ///   ``ServerConfiguration/validate()``.
    public static func parse(
        mode: String?, algorithms: String?, nonce: String?, nonceLifetime: String?, iatWindow: String?
    ) throws(ConfigurationError) -> DPoPSettings {
        var settings = DPoPSettings()
        if let mode {
            guard let value = Mode(rawValue: mode) else { throw .invalid("dpop must be off, allowed or required") }
            settings.mode = value
        }
        if let algorithms {
            settings.algorithms = algorithms.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        switch nonce {
        case nil, "off": break
        case "required": settings.requiresNonce = true
        default: throw .invalid("dpop nonce must be off or required")
        }
        if let nonceLifetime {
            guard let seconds = Int(nonceLifetime) else { throw .invalid("dpop nonce lifetime must be whole seconds") }
            settings.nonceLifetime = .seconds(seconds)
        }
        if let iatWindow {
            let parts = iatWindow.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let past = Int(parts[0]), let future = Int(parts[1]) else {
                throw .invalid("dpop iat window must be PAST/FUTURE in whole seconds, like 60/5")
            }
            settings.maximumProofAge = .seconds(past)
            settings.maximumClockSkew = .seconds(future)
        }
        return settings
    }
}
