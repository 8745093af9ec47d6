import HostileServerKit
import AsyncHTTPClientTransport
import NetworkService
import Testing

/// The SDK's hostile-server kit (`HostileServerKit`, TestHarness/), the same modes as the
/// SDK's `URLSessionHostileServerTests`, against the SDK over the AsyncHTTPClient transport
/// and its shared client. Each broken invariant is an issue naming its mode; the summary line
/// is what `scripts/test` prints.
@Suite("A hostile OAuth provider against the SDK over AsyncHTTPClient")
struct AsyncHTTPClientHostileServerTests {
    let kit = HostileServerKit(transport: "AsyncHTTPClient") { timeout, maximumResponseBytes in
        AsyncHTTPClientTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    @Test("every hostile mode keeps every invariant: no secret shown, no control character, no hang, loopback only, the session kept or ended rightly, bounded memory")
    func everyMode() async {
        await kit.runEveryMode()
    }
}
