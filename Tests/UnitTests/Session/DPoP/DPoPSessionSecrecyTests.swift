#if EncryptedTokenStore
import AppSDKTesting
import Foundation
@testable import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

/// Issue 36: no private key, proof or nonce of a DPoP-bound session appears in a record, an
/// error, or the description of the credentials, the key or the configuration.
@Suite("A DPoP-bound session's secrets stay out of records, errors and descriptions")
struct DPoPSessionSecrecyTests {
    @Test("through a sign-in, a refresh with a nonce, a challenged refresh and a refused proof")
    func noSecretAnywhere() async throws {
        let fake = DPoPTokenServer()
        let store = InMemoryTokenStore()
        let clock = TestClock()
        let texts = TestMutex<[String]>([])
        let service = try await DPoPRefreshTests.signedIn(fake, store: store, clock: clock) {
            $0.observer = SessionObserver { record in
                texts.withLock { $0 += [String(describing: record), String(reflecting: record), String(describing: record.event)] }
            }
        }
        fake.set { $0.requiredNonce = "secret-nonce-\(UUID().uuidString)" }
        try await DPoPRefreshTests.call(service)
        var errors: [any Error] = []
        for mode in [DPoPTokenServer.Mode.challengeEveryTime, .refuseProofs] {
            clock.advance(by: 700)
            fake.set { $0.mode = mode }
            do { try await DPoPRefreshTests.call(service) } catch { errors.append(error) }
        }
        #expect(errors.count == 2)
        let stored = try #require(try await store.load())
        let key = try #require(stored.dpopKey)
        var all = texts.withLock { $0 }
        for error in errors {
            all += [String(describing: error), String(reflecting: error), error.localizedDescription]
            if let underlying = (error as? SessionError)?.underlying { all += [String(describing: underlying), String(reflecting: underlying)] }
        }
        var dumped = ""
        dump(stored, to: &dumped)
        all += [String(describing: stored), dumped, String(describing: key), String(reflecting: key),
                String(describing: service.configuration.dpop as Any)]
        let secrets = [try #require(DPoPTestKeys.d(of: key))]
            + fake.transport.requests.compactMap { $0.headerFields[DPoPProof.headerName] }
            + fake.state.withLock { $0.noncesIssued + [$0.requiredNonce].compactMap { $0 } }
            + ["at-1", "at-2", "rt-1", "rt-2"]
        #expect(secrets.count > 8)
        for secret in secrets {
            for (index, text) in all.enumerated() {
                #expect(!text.contains(secret), "a secret appeared in text \(index) (not shown)")
            }
        }
    }
}
#endif
