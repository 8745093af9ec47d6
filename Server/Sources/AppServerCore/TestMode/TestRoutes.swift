import Hummingbird

/// `/v1/_test/...`: registered only with `--test-mode`.
struct TestRoutes {
    let state: TestModeState
    /// The DPoP nonce issuer; `nil` when DPoP is off (then `dpop/rotate-nonce` does not exist).
    let dpopNonces: DPoPNonceIssuer?

    /// The routes, relative to `/v1`; public.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("_test/counters") { _, _ in
            JSONBody.response(state.counters)
        }
        routes.post("_test/reset") { _, _ in
            state.reset()
            return JSONBody.noContent()
        }
        routes.post("_test/expire-access-tokens") { _, _ in
            state.generations.expireAll()
            return JSONBody.noContent()
        }
        if let dpopNonces {
            // Every nonce handed out so far becomes stale: the next proof carrying one is
            // answered use_dpop_nonce with a fresh DPoP-Nonce.
            routes.post("_test/dpop/rotate-nonce") { _, _ in
                dpopNonces.rotate()
                return JSONBody.noContent()
            }
        }
        routes.post("_test/refresh-faults") { request, _ in
            let body = try await JSONBody.decode(RefreshFaultBody.self, from: request)
            let count = body.count ?? 1
            guard count >= 0 else { throw APIError.invalidRequest("count: must be an integer of at least 0") }
            let fault: TestModeState.Fault
            switch try Validation.required(body.mode, field: "mode") {
            case "fail": fault = .fail
            case "drop": fault = .drop
            case "drop-response": fault = .dropResponse
            case "unavailable":
                let seconds = body.seconds ?? 1
                guard seconds.isFinite, seconds >= 0, seconds <= 3600, seconds == seconds.rounded() else {
                    throw APIError.invalidRequest("seconds: must be a whole number from 0 to 3600")
                }
                fault = .unavailable(retryAfter: Int(seconds))
            case "hang":
                let seconds = body.seconds ?? 30
                guard seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                    throw APIError.invalidRequest("seconds: must be a number from 0 to 3600")
                }
                fault = .hang(.milliseconds(Int((seconds * 1000).rounded())))
            default:
                throw APIError.invalidRequest("mode: must be one of fail, hang, drop, drop-response, unavailable")
            }
            state.setFault(fault, count: count)
            return JSONBody.noContent()
        }
        return routes
    }
}
