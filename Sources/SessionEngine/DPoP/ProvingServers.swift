import NetworkService
import TokenStore

/// The servers a service sends a DPoP-bound session's requests through, for its key: one
/// proving the requests that carry a bound token (calls), one proving every request (the
/// refresh, sign-out). Kept by the service for the last key it used, so a call makes none.
struct ProvingServers: Sendable {
    /// The key they prove with.
    let key: DPoPKey
    /// For calls: a proof with each DPoP-bound token.
    let calls: Server
    /// For token requests: a proof with every request.
    let tokenRequests: Server

    /// Both servers of `server` proving with `proofing`, for `key`.
    init(key: DPoPKey, server: Server, proofing: DPoPProofing) {
        self.key = key
        calls = server.proving(proofing)
        tokenRequests = server.proving(proofing, everyRequest: true)
    }
}
