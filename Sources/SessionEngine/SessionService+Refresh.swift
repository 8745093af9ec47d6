import Foundation
import NetworkService
import TokenStore

// Refreshing: single flight in the process, the store's exclusive section across processes,
// the store re-read first, the refresh limit's admission, the refresher's failures classified,
// and the rotated credentials saved before they are used (rules 3 to 7, docs/DESIGN.md §3), a
// failure that may pass retried when that is safe (rule 8), each decision recorded for the
// observer (SessionRecord). What to do is decided by SessionState's events (and its
// RefreshPhase), under its lock; the functions here only carry out the actions they return.

extension SessionService {
    /// New credentials to replace `failed`: from the refresh in flight, from the store when
    /// another writer already replaced them, or from the server (``Renewal/askedServer``).
    func refresh(after failed: Credentials, cause: RefreshCause) async throws -> Renewal {
        do {
            let renewed = try await sharedRefresh(cause: cause) { [self] refreshID, generation in
                let asked = configuration.now()
                // Only to tell the section's own failure from one inside it, for the observer.
                let entered = configuration.observer.map { _ in LockedValue(false) }
                do {
                    return try await tokenStore.withExclusiveAccess {
                        entered?.withLock { $0 = true }
                        record(refreshID, .exclusiveSectionEntered(waited: configuration.now().timeIntervalSince(asked)))
                        return try await refreshInsideExclusiveSection(after: failed, refreshID: refreshID, generation: generation)
                    }
                } catch {
                    if entered?.withLock({ $0 }) == false { record(refreshID, .storeFailed(.exclusiveAccess, error: Self.summary(of: error))) }
                    throw error
                }
            }
            guard renewed.credentials.accountID == failed.accountID else {
                // This caller joined a refresh of another account's session (another program
                // signed in after its call was made): never retried with that token (rule 3).
                throw SessionError(.sessionChanged, reason: .replacedByAnotherAccount)
            }
            return renewed
        } catch is CancellationError where !Task.isCancelled {
            // The shared refresh was cancelled by a sign-in or sign-out of this service,
            // not by this caller: the session this call was made for is over.
            throw SessionError(.sessionChanged)
        }
    }

    /// Joins the refresh in flight, or starts `perform` (given its refresh id and the
    /// generation it starts in) as the new one.
    ///
    /// The refresh runs in a task of its own, so one caller giving up cannot interrupt a
    /// rotation half way, and it stays the one in flight until it finishes; a cancelled caller
    /// stops waiting at once with `CancellationError`.
    private func sharedRefresh(
        cause: RefreshCause,
        _ perform: @escaping @Sendable (_ refreshID: Int, _ generation: Int) async throws -> Renewal
    ) async throws -> Renewal {
        let action = state.withLock { state in
            state.callerNeedsRefresh { id, generation in
                Task { [self] in
                    defer { self.state.withLock { $0.refreshFinished(id) } }
                    // Recorded by the refresh itself, so that it comes before its other records.
                    record(id, .refreshStarted(cause))
                    let startedAt = configuration.now()
                    do {
                        let renewed = try await perform(id, generation)
                        record(id, .refreshFinished(duration: configuration.now().timeIntervalSince(startedAt), succeeded: true))
                        return renewed
                    } catch {
                        record(id, .refreshFinished(duration: configuration.now().timeIntervalSince(startedAt), succeeded: false))
                        throw error
                    }
                }
            }
        }
        switch action {
        case let .started(refreshID, task):
            return try await result(of: task, refreshID: refreshID)
        case let .joined(refreshID, task):
            record(refreshID, .joinedRefresh(cause))
            return try await result(of: task, refreshID: refreshID)
        }
    }

    /// The task's result, or `CancellationError` as soon as the waiting task is cancelled (which
    /// also ends the refresh when it was only waiting to retry for callers all gone).
    private func result(of task: RefreshPhase.RefreshTask, refreshID: Int) async throws -> Renewal {
        let waiter = LockedValue<CheckedContinuation<Renewal, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled {
                    waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
                    return
                }
                Task {
                    let result = await task.result
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: { [state] in
            guard let continuation = waiter.withLock({ $0.take() }) else { return }
            if case let .cancel(refresh) = state.withLock({ $0.refreshWaiterLeft(refreshID) }) { refresh.cancel() }
            continuation.resume(throwing: CancellationError())
        }
    }

    private func refreshInsideExclusiveSection(after failed: Credentials, refreshID: Int, generation: Int) async throws -> Renewal {
        let fromStore: Credentials?
        do {
            fromStore = try await tokenStore.load()
        } catch {
            record(refreshID, .storeFailed(.load, error: Self.summary(of: error)))
            throw error
        }
        let stored = try await credentialsToRefresh(fromStore, failed: failed, refreshID: refreshID, generation: generation)
        let now = configuration.now()
        let due = isDue(stored, at: now)
        if stored.accessToken != failed.accessToken, !due {
            // Another caller or program already replaced the failed token.
            record(refreshID, .storeHeldNewerTokens)
            return Renewal(credentials: stored, askedServer: false)
        }
        // A session with a DPoP key proves every token request with it (before any admission:
        // a key that cannot sign here sends nothing).
        let tokenServer = try tokenRequestServer(for: stored)
        let limit = configuration.refreshLimit
        var countedAt: Date?
        switch state.withLock({ $0.admitRefresh(of: stored, due: due, at: now, limit: limit) }) {
        case .explained:
            break
        case let .counted(count, maximum):
            countedAt = now
            record(refreshID, .refreshLimitCounted(count: count, limit: maximum))
        case let .refused(count, retryIn):
            record(refreshID, .refreshLimitExceeded(count: count))
            throw limit.exceeded(count: count, retryIn: retryIn)
        }
        let (tokens, requestedAt) = try await tokensFromServer(
            for: stored, fromStore: fromStore, through: tokenServer, countedAt: countedAt, refreshID: refreshID, generation: generation)
        if let refusal = answerRefusal(tokens, to: stored) {
            throw await refreshFailure(refusal.error, reason: refusal.reason, refreshID: refreshID, generation: generation,
                                       stored: fromStore ?? stored)
        }
        // The session keeps its DPoP key through every refresh: only a sign-in makes a new one.
        let renewed = credentials(from: tokens, accountID: stored.accountID, requestedAt: requestedAt, dpopKey: stored.dpopKey)
        try await keep(renewed, replacing: fromStore, refreshID: refreshID, generation: generation)
        return Renewal(credentials: renewed, askedServer: true)
    }

    /// The server's new tokens for `stored`, and when the request that got them was sent: the
    /// refresh call, tried again with the same refresh token while ``Configuration/refreshRetry``
    /// allows and a caller still waits (rule 8), inside the exclusive section and single flight.
    ///
    /// A proved refresh (`server` proves, the session has a key) that the server refused for its
    /// proof is classified before any ``RefreshFailureRule``: a nonce challenge met again is
    /// ``RefreshFailure/Kind/dpopNonce`` (not delivered, so rule 8 may retry it on any server,
    /// and its refresh-limit admission, `countedAt`, is given back if it ends the refresh), and
    /// `invalid_dpop_proof` ``RefreshFailure/Kind/dpopProofRefused``: neither ends the session.
    private func tokensFromServer(
        for stored: Credentials, fromStore: Credentials?, through server: Server, countedAt: Date?, refreshID: Int, generation: Int
    ) async throws -> (Tokens, requestedAt: Date) {
        let firstRequestAt = configuration.now()
        let proved = stored.dpopKey != nil
        var attempt = 1
        while true {
            let requestedAt = configuration.now()
            do {
                let tokens = try await configuration.refresher.refresh(stored, server)
                let duration = configuration.now().timeIntervalSince(requestedAt)
                state.withLock { $0.noteRefreshDuration(duration) }
                record(refreshID, .serverAnswered(attempt: attempt, duration: duration, outcome: .rotated))
                return (tokens, requestedAt)
            } catch {
                let answeredAt = configuration.now()
                let proofFailure = proved ? Self.proofFailure(error) : nil
                let reason = proofFailure != nil ? nil : configuration.effectiveRefreshFailureRule.sessionEndingReason(error)
                    ?? RefreshFailureRule.refusedRequest.sessionEndingReason(error)
                let outcome: RefreshOutcome = reason.map { .rejected($0) } ?? .failed(proofFailure ?? RefreshFailure(classifying: error))
                record(refreshID, .serverAnswered(attempt: attempt, duration: answeredAt.timeIntervalSince(requestedAt), outcome: outcome))
                switch proofFailure?.kind {
                case .dpopNonce?: record(refreshID, .dpopNonceChallenge(attempt: attempt))
                case .dpopProofRefused?: record(refreshID, .dpopProofRefused)
                default: break
                }
                if case let .failed(failure) = outcome, !Task.isCancelled,
                   let delay = configuration.refreshRetry.delay(beforeAttempt: attempt + 1, after: failure,
                                                                elapsed: answeredAt.timeIntervalSince(firstRequestAt)),
                   state.withLock({ $0.retryWanted(refreshID) }) == .sleep {
                    attempt += 1
                    record(refreshID, .retryScheduled(attempt: attempt, delay: delay))
                    // Cancelled when a sign-in or sign-out here moved on, or when every caller
                    // stopped waiting: the refresh ends there, with no request under way.
                    try await configuration.sleep(delay)
                    if state.withLock({ $0.retryWaitEnded(refreshID) }) == .askAgain { continue }
                }
                if proofFailure?.kind == .dpopNonce, let countedAt {
                    // The server refused before its token logic: the refresh never counts.
                    state.withLock { $0.refundAdmission(countedAt: countedAt) }
                }
                throw await refreshFailure(error, reason: reason, refreshID: refreshID, generation: generation,
                                           stored: fromStore ?? stored)
            }
        }
    }

    /// Why the refresh answer `tokens` for `stored` cannot be kept, if it cannot: a bearer
    /// token answered to a DPoP-bound session's proof under ``DPoPConfiguration/BearerAnswer/refuse``
    /// ends the session (``SignOutReason/dpopNotHonoured``). A session kept as bearer
    /// (``DPoPConfiguration/BearerAnswer/accept``) is not ended by a bearer answer.
    private func answerRefusal(_ tokens: Tokens, to stored: Credentials) -> (error: SessionError, reason: SignOutReason)? {
        guard stored.dpopKey != nil, stored.accessTokenType == Self.dpopTokenType, !Self.isDPoPBound(tokens),
              bearerAnswer == .refuse else { return nil }
        return (SessionError(.dpopNotHonoured, detail: "the server answered the DPoP-bound refresh with a bearer token"), .dpopNotHonoured)
    }

    /// The credentials a refresh starts from, re-read inside the exclusive section: unsaved
    /// rotated ones first while the store still holds what they replaced (the stored refresh
    /// token is already retired), else the stored ones.
    /// - Throws: for the credentials of a session that ended here, for an empty store (another
    ///   program signed out) and for another account's credentials (another program signed in).
    private func credentialsToRefresh(
        _ fromStore: Credentials?, failed: Credentials, refreshID: Int, generation: Int
    ) async throws -> Credentials {
        if let fromStore, let ended = endedSession(of: fromStore) {
            // The server already rejected these (this call loaded them before that was known):
            // never present them again; remove them, and end the call without a second event.
            do {
                try await removeEndedCredentialsInsideExclusiveSection(ended)
            } catch {
                record(refreshID, .storeFailed(.clear, error: Self.summary(of: error.underlying ?? error)))
                throw error
            }
            throw SessionError(.sessionEnded, reason: ended.reason)
        }
        guard let stored = state.withLock({ $0.unsavedRenewal(over: fromStore, in: generation) }) ?? fromStore else {
            throw sessionEndedElsewhere(.endedElsewhere, refreshID: refreshID, generation: generation)
        }
        guard stored.accountID == failed.accountID else {
            throw sessionEndedElsewhere(.replacedByAnotherAccount, refreshID: refreshID, generation: generation)
        }
        return stored
    }

    /// The error for a refresh the server did not answer with tokens. The rule's reason, else
    /// any 4xx but 408 and 429 (a refused request that repeating cannot change:
    /// ``RefreshFailureRule/refusedRequest``), ends the session: the store is cleared and
    /// `signedOut` sent, or, when the store cannot be cleared, the credentials are remembered as
    /// dead. Anything else is transient. Nothing is written when a sign-in or sign-out here
    /// moved on meanwhile.
    private func refreshFailure(
        _ error: any Error, reason: SignOutReason?, refreshID: Int, generation: Int, stored: Credentials
    ) async -> SessionError {
        let ended: SignOutReason
        switch state.withLock({ $0.refreshFailed(in: generation, endingSession: reason) }) {
        case .alreadyMovedOn:
            return SessionError(.sessionEnded, reason: .userSignedOut, underlying: error)
        case .keepSession:
            return SessionError(.refreshFailed, underlying: error)
        case let .endSession(ending):
            ended = ending
        }
        record(refreshID, .sessionEnded(ended))
        broadcaster.send(.signedOut(ended))
        do {
            try await tokenStore.clear()
        } catch let storeError {
            record(refreshID, .storeFailed(.clear, error: Self.summary(of: storeError)))
            // The session is over but the store keeps its credentials (a database that is
            // down): remember them as dead, so that later calls neither present the rejected
            // refresh token again nor send `signedOut` again.
            return rememberEndedSession(stored, reason: ended, storeError: storeError)
        }
        return SessionError(.sessionEnded, reason: ended, underlying: error)
    }

    /// Saves `renewed` before anyone uses it, and sends `refreshed`. When a sign-in or sign-out
    /// moved on while the server rotated, no caller gets them and no event is sent, but they
    /// replace the retired ones in the store (`saveOvertaken(_:)`) and the sign-out waiting
    /// for the store must revoke these, not the retired ones. When the store cannot save them, they are
    /// kept in memory for this process (losing them would end the session: the server already
    /// retired the stored refresh token), the store's failure is thrown, and the next call saves
    /// them again.
    private func keep(_ renewed: Credentials, replacing fromStore: Credentials?, refreshID: Int, generation: Int) async throws {
        let rotation = fromStore.map { UnsavedCredentials(replaced: $0, renewed: renewed, generation: generation) }
        switch state.withLock({ $0.rotationArrived(rotation, in: generation) }) {
        case .save:
            break
        case .overtaken:
            await saveOvertaken(rotation)
            throw SessionError(.sessionEnded, reason: .userSignedOut)
        }
        do {
            try await tokenStore.save(renewed)
        } catch {
            if let rotation { state.withLock { $0.keepUnsaved(rotation) } }
            record(refreshID, .keptInMemory)
            record(refreshID, .storeFailed(.save, error: Self.summary(of: error)))
            throw error
        }
        state.withLock { $0.rotationSaved() }
        record(refreshID, .saved)
        broadcaster.send(.refreshed(accountID: renewed.accountID))
    }

    /// Puts a rotation that a sign-in or sign-out here overtook into the store, while this
    /// refresh still holds the exclusive section and only if the store still holds exactly the
    /// credentials it replaced (the server retired their refresh token): whoever takes the
    /// section next, another program or the waiting sign-out or sign-in (which then clears or
    /// replaces them), never presents the retired token again (rule 6). When the store cannot
    /// take them, the sign-out still finds them in `SessionState` and revokes them.
    private func saveOvertaken(_ rotation: UnsavedCredentials?) async {
        guard let rotation,
              let stored = try? await tokenStore.load(),
              stored.identifyingToken == rotation.replaced.identifyingToken else { return }
        try? await tokenStore.save(rotation.renewed)
    }

    /// The error for a session that another process ended (or replaced) while this one
    /// waited; subscribers hear of it once, unless this service already ended it itself.
    private func sessionEndedElsewhere(_ reason: SignOutReason, refreshID: Int, generation: Int) -> SessionError {
        switch state.withLock({ $0.sessionEndedElsewhere(in: generation) }) {
        case .endSession:
            break
        case .alreadyMovedOn:
            return SessionError(.sessionEnded, reason: .userSignedOut)
        }
        record(refreshID, .sessionEnded(reason))
        broadcaster.send(.signedOut(reason))
        return SessionError(reason == .replacedByAnotherAccount ? .sessionChanged : .sessionEnded, reason: reason)
    }

    /// Credentials from tokens the server just issued. The expiry is counted on this device's
    /// clock from the lifetime the server gave (`expiresIn`, or the JWT access token's
    /// `exp − iat` when that is shorter), so a device whose clock is off
    /// still refreshes on time; else from `expiresAt`; else from the access token's JWT
    /// `exp` (its lifetime `exp − iat` when `iat` is there: a scheduling hint, never checked);
    /// else the expiry is unknown and the token is refreshed when the server refuses it.
    ///
    /// The lifetime is counted from `requestedAt`, when the request that got the tokens was
    /// sent (the server issued them later), so the expiry here is never later than the server's.
    /// For a JWT whose `exp` and `iat` are whole seconds, the lifetime is a second shorter than
    /// `exp − iat` (`UnverifiedJWT.lifetime`): the server may have issued the token up to a
    /// second after the `iat` it wrote.
    ///
    /// `expiresAt` and a JWT's `exp` without `iat` are times on the server's clock: they are read
    /// against this device's time plus the clock offset measured from the `Date` headers of
    /// token responses (``Tokens/serverDate``, ``ClockSkew``: bounded and smoothed; a missing or
    /// absurd `Date` changes nothing).
    ///
    /// `dpopKey` is the session's key, carried unchanged (the stored one, at a refresh); the
    /// access token's type is kept only for a session with a key and a `DPoP` token type.
    func credentials(from tokens: Tokens, accountID: String, requestedAt: Date? = nil, dpopKey: DPoPKey? = nil) -> Credentials {
        var credentials = bearerCredentials(from: tokens, accountID: accountID, requestedAt: requestedAt)
        credentials.dpopKey = dpopKey
        if dpopKey != nil, tokens.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame {
            credentials.accessTokenType = "DPoP"
        }
        return credentials
    }

    private func bearerCredentials(from tokens: Tokens, accountID: String, requestedAt: Date?) -> Credentials {
        let now = requestedAt ?? configuration.now()
        let measured = tokens.serverDate.flatMap { ClockSkew.measure(serverDate: $0, requestedAt: now) }
        let serverNow = now.addingTimeInterval(ClockSkew.applied(state.withLock { $0.noteClockOffset(measured) }))
        var lifetime: TimeInterval?
        if let expiresIn = tokens.expiresIn {
            // A JWT access token's whole-second `exp − iat` may end sooner than `expires_in`
            // counted from the request (the server wrote `iat` truncated, then counted
            // `expires_in` from it): the earlier of the two.
            lifetime = min(expiresIn, UnverifiedJWT(tokens.accessToken.rawValue)?.lifetime ?? expiresIn)
        } else if let expiresAt = tokens.expiresAt {
            lifetime = expiresAt.timeIntervalSince(serverNow)
        } else if let claims = UnverifiedJWT(tokens.accessToken.rawValue) {
            lifetime = claims.lifetime ?? claims.expiresAt?.timeIntervalSince(serverNow)
        }
        guard let lifetime, lifetime.isFinite, lifetime > 0 else {
            return Credentials(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                               accessTokenExpiresAt: nil, accountID: accountID, accessTokenIssuedAt: now)
        }
        return Credentials(
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            accessTokenExpiresAt: now.addingTimeInterval(lifetime),
            accountID: accountID,
            accessTokenIssuedAt: now
        )
    }
}
