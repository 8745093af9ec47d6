import HostileServerKit
import NetworkService
import Testing

/// The hostile-server kit (`HostileServerKit`, TestHarness/) against the SDK over
/// `URLSessionTransport`; `Integrations/AsyncHTTPClientTransport` runs the same modes against
/// its transport. Each broken invariant is an issue naming its mode; the summary line is what
/// `scripts/test` prints.
@Suite("A hostile OAuth provider against the SDK over URLSession")
struct URLSessionHostileServerTests {
    let kit = HostileServerKit(transport: "URLSession") { timeout, maximumResponseBytes in
        URLSessionTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    @Test("every hostile mode keeps every invariant: no secret shown, no control character, no hang, loopback only, the session kept or ended rightly, bounded memory")
    func everyMode() async {
        await kit.runEveryMode()
    }
}
