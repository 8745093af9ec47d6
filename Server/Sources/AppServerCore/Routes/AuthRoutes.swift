import Foundation
import Hummingbird

/// `/v1/auth/...`: sign-up, sign-in, anonymous sign-in, refresh (public) and sign-out (bearer).
struct AuthRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("auth/sign-up") { request, context in
            // DPoP first: a refused proof or a nonce challenge costs no rate-limit slot and
            // writes nothing.
            let proof = try services.dpop?.tokenRequestProof(request)
            let body = try await JSONBody.decode(SignUpBody.self, from: request)
            let email = try Validation.email(body.email)
            let password = try Validation.password(body.password)
            let nickname = try Validation.nickname(body.nickname)
            if let limiter = services.rateLimiter {
                try limiter.reserve([(key: "sign-up@\(clientAddress(context))", limit: limiter.limits.signUpsPerAddress)])
            }
            let session = try await services.auth.signUp(email: email, password: password, nickname: nickname, jkt: proof?.thumbprint)
            return JSONBody.response(session, status: .created)
        }
        routes.post("auth/sign-in") { request, context in
            let proof = try services.dpop?.tokenRequestProof(request)
            let body = try await JSONBody.decode(SignInBody.self, from: request)
            // Only presence and type are checked: a malformed email simply cannot match.
            let email = Validation.normalizedEmail(
                try Validation.required(body.email, field: "email").trimmingCharacters(in: .whitespaces)
            )
            let password = try Validation.required(body.password, field: "password")
            guard let limiter = services.rateLimiter else {
                return JSONBody.response(try await services.auth.signIn(email: email, password: password, jkt: proof?.thumbprint))
            }
            // A slot is reserved before the password is verified, in one step with the check, so
            // at most the limit of attempts per window are verified however many arrive at once;
            // once an account (or address) is at its limit, even the right password gets 429
            // until the window has moved on. A right password gives its slot back.
            let reservation = try limiter.reserve([
                (key: "sign-in-failure:\(email)", limit: limiter.limits.signInFailuresPerAccount),
                (key: "sign-in-failure@\(clientAddress(context))", limit: limiter.limits.signInFailuresPerAddress),
            ])
            let session: AuthSessionDTO
            do {
                session = try await services.auth.signIn(email: email, password: password, jkt: proof?.thumbprint)
            } catch let error as APIError where error.code == .invalidCredentials {
                throw error   // a failed attempt keeps its slot: it counts
            } catch {
                limiter.release(reservation)
                throw error
            }
            limiter.release(reservation)
            return JSONBody.response(session)
        }
        routes.post("auth/anonymous") { request, context in
            let proof = try services.dpop?.tokenRequestProof(request)
            // Each anonymous sign-in creates a member and a session: limited per address like sign-ups.
            if let limiter = services.rateLimiter {
                try limiter.reserve([(key: "anonymous@\(clientAddress(context))", limit: limiter.limits.anonymousSignInsPerAddress)])
            }
            return JSONBody.response(try await services.auth.signInAnonymously(jkt: proof?.thumbprint), status: .created)
        }
        routes.post("auth/refresh") { request, context in
            // Test mode counts every call and applies a pending fault before anything else, so a
            // faulted call never consumes the refresh token; `dropResponse` applies after the
            // rotation instead (a response lost on the way back).
            let fault = services.testMode?.beginRefresh()
            if let fault, !fault.appliesAfterHandling {
                try await TestFaults.apply(fault, context: context)
            }
            // The proof is checked before the transaction: a refused one or a nonce challenge
            // never consumes the refresh token (RFC 9449 §8; docs/DPOP-PLAN.md §2).
            let proof = try services.dpop?.tokenRequestProof(request)
            let body = try await JSONBody.decode(RefreshTokenBody.self, from: request)
            let refreshToken = try Validation.required(body.refreshToken, field: "refreshToken")
            // A client that closed its connection while its request was held (a killed process)
            // gets no rotation: see AuthService.refresh.
            let hasLeft = await ClientPresenceHandler.hasLeft(context.channel)
            do {
                let tokens = try await services.auth.refresh(
                    refreshToken: refreshToken, proofThumbprint: proof?.thumbprint, clientIsConnected: { !hasLeft() }
                )
                if tokens.tokenType == "DPoP", let jkt = proof?.thumbprint {
                    services.testMode?.recordRefresh(jkt: jkt)
                }
                if let fault, fault.appliesAfterHandling {
                    try await TestFaults.apply(fault, context: context)
                }
                return JSONBody.response(RefreshResultDTO(tokens: tokens))
            } catch let error as ClientGoneError {
                try? await context.channel.close()
                throw error
            }
        }
        // The middleware applies to the routes added after it: sign-out only.
        routes.add(middleware: services.authMiddleware)
        routes.post("auth/sign-out") { request, context in
            let identity = try context.requireIdentity()
            let body = try await JSONBody.decode(RefreshTokenBody.self, from: request)
            let refreshToken = try Validation.required(body.refreshToken, field: "refreshToken")
            try await services.auth.signOut(refreshToken: refreshToken, caller: identity)
            return JSONBody.noContent()
        }
        return routes
    }
}

/// The key of per-address limits (``ClientAddress``): the IPv4 address, an IPv6 /64; `unknown` without one.
func clientAddress(_ context: AppRequestContext) -> String {
    ClientAddress.key(context.channel.remoteAddress)
}
