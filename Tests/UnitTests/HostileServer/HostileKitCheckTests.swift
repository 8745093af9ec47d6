import HostileServerKit
import Testing

@Suite("The hostile-server kit's own checks")
struct HostileKitCheckTests {
    @Test("a secret is found in every encoding the SDK sends one in, and in a piece of 8 characters; a text without it is clean")
    func secretsInEveryEncoding() {
        let secret = HostileSecrets.clientSecret
        let encodings = HostileSecrets.encodings(of: secret)
        for name in ["raw", "percent-encoded", "form-encoded", "JSON-escaped", "base64", "base64 of the Basic credentials"] {
            let encoded = encodings.first { $0.name == name }
            #expect(encoded != nil, "no \(name) encoding")
            if let encoded {
                #expect(HostileSecrets.leak(of: secret, in: "failed: \(encoded.text) (more)") != nil, "\(name): \(encoded.text)")
            }
        }
        #expect(Set(encodings.map(\.text)).count == encodings.count, "two encodings are the same text")
        #expect(HostileSecrets.leak(of: secret, in: "body starts: \"" + String(secret.prefix(9)) + "\"") == "8 characters of it")
        #expect(HostileSecrets.leak(of: secret, in: "POST /token failed: HTTP 400 invalid_client \"<redacted>\"") == nil)
    }

    @Test("control characters and bidirectional overrides are found; a multi-line text's line breaks are its own")
    func controlCharacters() {
        #expect(HostileText.controlCharacters(in: "ok\u{1B}]52;c;eA==\u{07}", multiline: false).count == 2)
        #expect(HostileText.controlCharacters(in: "a \u{202E}b", multiline: false).count == 1)
        #expect(HostileText.controlCharacters(in: "C1 \u{9B}31m", multiline: false).count == 1)
        #expect(HostileText.controlCharacters(in: "one\ntwo", multiline: false).count == 1)
        #expect(HostileText.controlCharacters(in: "one\n\ttwo", multiline: true).isEmpty)
        #expect(HostileText.visible("a\u{1B}[2J") == "a\\u{1b}[2J")
    }
}
