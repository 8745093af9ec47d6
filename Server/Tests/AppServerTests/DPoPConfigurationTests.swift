import AppServerCore
import Foundation
import Testing

/// `--dpop`, `--dpop-algs`, `--dpop-nonce`, `--dpop-nonce-lifetime` and `--dpop-iat-window`.
@Suite("DPoP configuration")
struct DPoPConfigurationTests {
    @Test("the defaults: DPoP off, both algorithms, no nonce, a 60-second nonce slot, an iat window of 60 s back and 5 s ahead")
    func defaults() throws {
        let settings = try DPoPSettings.parse(mode: nil, algorithms: nil, nonce: nil, nonceLifetime: nil, iatWindow: nil)
        #expect(settings == DPoPSettings())
        #expect(settings.mode == .off)
        #expect(settings.algorithms == ["ES256", "EdDSA"])
        #expect(!settings.requiresNonce)
        #expect(settings.nonceLifetime == .seconds(60))
        #expect(settings.maximumProofAge == .seconds(60))
        #expect(settings.maximumClockSkew == .seconds(5))
        #expect(TestServer.configuration().dpop == DPoPSettings())
    }

    @Test("every option is read")
    func options() throws {
        let settings = try DPoPSettings.parse(mode: "required", algorithms: "EdDSA", nonce: "required", nonceLifetime: "30", iatWindow: "120/10")
        #expect(settings == DPoPSettings(mode: .required, algorithms: ["EdDSA"], requiresNonce: true, nonceLifetime: .seconds(30),
                                         maximumProofAge: .seconds(120), maximumClockSkew: .seconds(10)))
        var configuration = TestServer.configuration()
        configuration.dpop = settings
        try configuration.validate()
    }

    @Test("malformed options are refused, naming the option",
          arguments: [
              ("mode", "on"), ("nonce", "yes"), ("nonce lifetime", "1.5"), ("iat window", "60"), ("iat window", "60/"), ("iat window", "a/5"),
          ])
    func malformedOptions(option: String, value: String) {
        do {
            _ = try DPoPSettings.parse(
                mode: option == "mode" ? value : nil, algorithms: nil, nonce: option == "nonce" ? value : nil,
                nonceLifetime: option == "nonce lifetime" ? value : nil, iatWindow: option == "iat window" ? value : nil
            )
            Issue.record("\(option) \(value) was accepted")
        } catch {
            #expect(error.description.hasPrefix("dpop"), "\(error)")
            #expect(error.description.contains(option == "mode" ? "off, allowed or required" : option), "\(error)")
        }
    }

    @Test("values out of range, unknown or repeated algorithms and an empty list are refused by validate()",
          arguments: [
              ("RS256", "60", "60/5", "unknown algorithm"), ("ES256,ES256", "60", "60/5", "named twice"), ("", "60", "60/5", "unknown algorithm"),
              ("ES256", "0", "60/5", "nonce lifetime"), ("ES256", "3601", "60/5", "nonce lifetime"),
              ("ES256", "60", "0/5", "iat window (past)"), ("ES256", "60", "3601/5", "iat window (past)"),
              ("ES256", "60", "60/-1", "iat window (future)"), ("ES256", "60", "60/301", "iat window (future)"),
          ])
    func outOfRange(algorithms: String, nonceLifetime: String, iatWindow: String, expected: String) throws {
        var configuration = TestServer.configuration()
        configuration.dpop = try DPoPSettings.parse(mode: "allowed", algorithms: algorithms, nonce: nil, nonceLifetime: nonceLifetime, iatWindow: iatWindow)
        do {
            try configuration.validate()
            Issue.record("\(algorithms) \(nonceLifetime) \(iatWindow) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }
}
