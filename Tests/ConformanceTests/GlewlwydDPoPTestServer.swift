import AppSDKHarness
import Foundation
import Testing

/// glewlwyd's DPoP instances, which `scripts/lib/glewlwyd.sh` adds with `GLEWLWYD_DPOP=1` on the
/// same clients and user as `oidc` (``GlewlwydTestServer``): `oidc-dpop` (DPoP allowed) and
/// `oidc-dpop-nonce` (nonces required, a new one every few accepted proofs, one per client).
enum GlewlwydDPoPTestServer {
    private static let environment = ProcessInfo.processInfo.environment

    /// `APP_GLEWLWYD_DPOP_ISSUER`: `{url}/api/oidc-dpop`.
    static let issuer = environment["APP_GLEWLWYD_DPOP_ISSUER"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    /// `APP_GLEWLWYD_DPOP_NONCE_ISSUER`: `{url}/api/oidc-dpop-nonce`.
    static let nonceIssuer = environment["APP_GLEWLWYD_DPOP_NONCE_ISSUER"].flatMap { $0.isEmpty ? nil : URL(string: $0) }

    /// The issuer of `nonces`' instance.
    /// - Throws: ``TestSetupError`` when its variable is not set.
    static func issuerURL(nonces: Bool) throws -> URL {
        guard let url = nonces ? nonceIssuer : issuer else {
            throw TestSetupError("APP_GLEWLWYD_DPOP_ISSUER / _NONCE_ISSUER are not set (GLEWLWYD_DPOP=1 scripts/lib/glewlwyd.sh)")
        }
        return url
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when glewlwyd runs with its DPoP instances.
    static var glewlwydDPoP: Self {
        .enabled(if: GlewlwydTestServer.url != nil && GlewlwydDPoPTestServer.issuer != nil
                     && GlewlwydDPoPTestServer.nonceIssuer != nil,
                 "APP_GLEWLWYD_DPOP_ISSUER is not set: these tests need glewlwyd started with GLEWLWYD_DPOP=1 (scripts/test does)")
    }
}
