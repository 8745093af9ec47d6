import Foundation
import Logging

/// Sign-up, sign-in, refresh-token rotation and sign-out.
///
/// A sign-in starts a *session family* (a row in `sessions`, the `sid` of its access tokens).
/// Each refresh consumes the presented refresh token and issues the next one in the same family;
/// presenting a consumed token again revokes the whole family. Revoking a family kills its access
/// tokens too, because ``AuthMiddleware`` checks `sid` on every request.
///
/// One exception, the *reuse grace period*: a consumed token presented again at most
/// `refreshReuseGrace` after its first use, while none of the children it issued has been used,
/// gets another child (a *sibling*) without withdrawing the children already issued: a client
/// retrying a refresh whose response it lost, or the stalled request of a holder that is gone
/// while another holder keeps the first child. The first sibling used wins; the others are
/// withdrawn then, and presenting one later is reuse.
public struct AuthService: Sendable {
    let database: Database
    let accessTokens: AccessTokens
    let passwords: PasswordHasher
    let refreshTokenLifetime: Duration
    /// How long after its first use a refresh token may be presented again as a retry; zero: never.
    let refreshReuseGrace: Duration
    let clock: TimeSource

    /// Creates the service.
    init(
        database: Database, accessTokens: AccessTokens, passwords: PasswordHasher,
        refreshTokenLifetime: Duration, refreshReuseGrace: Duration, clock: TimeSource
    ) {
        self.database = database
        self.accessTokens = accessTokens
        self.passwords = passwords
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshReuseGrace = refreshReuseGrace
        self.clock = clock
    }

    /// Registers a member with email and password and starts a session.
    /// - Parameters:
    ///   - email: the email in normalized form (``Validation/email(_:field:)`` returns it).
    ///   - jkt: the thumbprint of the DPoP key the sign-up proved it holds: the session is bound
    ///     to it; `nil` starts a bearer session.
    func signUp(email: String, password: String, nickname: String, jkt: String? = nil) async throws -> AuthSessionDTO {
        let hash = await passwords.hash(password)
        let now = clock.now()
        let member = MemberRecord(id: UUID(), email: email, passwordHash: hash, nickname: nickname, role: .member, createdAt: now.wholeSeconds)
        return try await database.transaction { transaction in
            guard try await MemberStore.find(email: email, in: transaction) == nil else { throw APIError.emailTaken }
            try await MemberStore.insert(member, in: transaction)
            let tokens = try await startSession(for: member, jkt: jkt, now: now, in: transaction)
            return AuthSessionDTO(member: member.dto, tokens: tokens)
        }
    }

    /// Checks email and password and starts a session.
    ///
    /// A password over 72 bytes is wrong without a look: bcrypt reads only the first 72 bytes, so
    /// verifying it would let any longer password that starts with the right 72 bytes in, and
    /// sign-up (and `--admin-password`) refuse such passwords, so none is anyone's. It is answered
    /// like any wrong password, without spending a bcrypt verification.
    /// - Parameters:
    ///   - email: the email in normalized form (``Validation/normalizedEmail(_:)``).
    ///   - jkt: the DPoP key to bind the session to, as in ``signUp(email:password:nickname:jkt:)``.
    func signIn(email: String, password: String, jkt: String? = nil) async throws -> AuthSessionDTO {
        guard password.utf8.count <= Validation.maximumPasswordBytes else { throw APIError.invalidCredentials }
        let member = try await database.transaction { transaction in
            try await MemberStore.find(email: email, in: transaction)
        }
        // Verify even for an unknown email (against a decoy) so both failures take the same time.
        guard await passwords.verify(password, against: member?.passwordHash), let member else {
            throw APIError.invalidCredentials
        }
        let now = clock.now()
        return try await database.transaction { transaction in
            // The member may have been deleted between the two transactions.
            guard try await MemberStore.find(id: member.id, in: transaction) != nil else { throw APIError.invalidCredentials }
            let tokens = try await startSession(for: member, jkt: jkt, now: now, in: transaction)
            return AuthSessionDTO(member: member.dto, tokens: tokens)
        }
    }

    /// Creates an anonymous member (no email, no password, nickname `anonymous-XXXX`) and starts a
    /// session, bound to the DPoP key `jkt` when given.
    func signInAnonymously(jkt: String? = nil) async throws -> AuthSessionDTO {
        let now = clock.now()
        let suffix = String(format: "%04x", UInt16.random(in: .min ... .max))
        let member = MemberRecord(
            id: UUID(), email: nil, passwordHash: nil, nickname: "anonymous-\(suffix)", role: .member, createdAt: now.wholeSeconds
        )
        return try await database.transaction { transaction in
            try await MemberStore.insert(member, in: transaction)
            let tokens = try await startSession(for: member, jkt: jkt, now: now, in: transaction)
            return AuthSessionDTO(member: member.dto, tokens: tokens)
        }
    }

    /// The outcome of presenting a refresh token, decided inside one transaction.
    private enum RefreshOutcome: Sendable {
        case rotated(TokensDTO)
        case reused
        case invalid
        case clientGone
        case wrongKey
    }

    /// Rotates a refresh token: consumes it and returns a new pair in the same session family.
    ///
    /// The first presentation of a token uses it and issues its child; when the token is one of
    /// several siblings (children of one parent), it wins, and the siblings not used yet are
    /// withdrawn. A used token presented again is reuse, unless it is presented at most
    /// ``refreshReuseGrace`` after its first use, in a live family, while none of its children
    /// has been used: then another child is issued and the children already issued stay valid
    /// (the first one used wins). Withdrawing one there would sign out its holder whenever the
    /// presentation is the late request of a holder that died. A withdrawn token presented is
    /// reuse.
    /// - Throws: 401 `refresh_token_reused` (after revoking the family) on reuse;
    ///   401 `invalid_refresh_token` when the token is unknown, expired or its family is revoked.
    ///
    /// - Parameter clientIsConnected: whether the client that sent the request is still there,
    ///   asked inside the transaction before anything is read or written. A request whose
    ///   client has gone (a killed process, whose kernel closed the connection) while it was
    ///   held at the server never reaches the token logic: its answer could go nowhere, and
    ///   presenting its token then could only withdraw or reuse what a surviving holder got.
    /// - Throws: ``ClientGoneError`` when `clientIsConnected` says no; nothing was changed.
    ///
    /// - Parameter proofThumbprint: the thumbprint of the key of the request's verified DPoP
    ///   proof, if it had one. A token of a bound family is judged only when it matches the
    ///   family's key, before its use or reuse is: a token copied without its key changes
    ///   nothing (it can neither rotate nor revoke the family), so its owner is unaffected.
    /// - Throws: 401 `invalid_dpop_proof` for a bound family without its key's proof.
    func refresh(
        refreshToken: String, proofThumbprint: String? = nil, clientIsConnected: @Sendable () -> Bool = { true }
    ) async throws -> TokensDTO {
        let hash = RandomToken.hash(refreshToken)
        let now = clock.now()
        // Reuse must commit the revocation, so the transaction returns the outcome instead of throwing.
        let outcome: RefreshOutcome = try await database.transaction { transaction in
            guard clientIsConnected() else { return .clientGone }
            guard let record = try await SessionStore.findRefreshToken(hash: hash, in: transaction) else { return .invalid }
            if let bound = record.boundKeyThumbprint, bound != proofThumbprint { return .wrongKey }
            if record.isUsed || record.isWithdrawn {
                guard try await mayIssueSibling(presenting: record, hash: hash, now: now, in: transaction),
                      let member = try await MemberStore.find(id: record.memberID, in: transaction)
                else {
                    try await SessionStore.revoke(sessionID: record.sessionID, now: now, in: transaction)
                    return .reused
                }
                // Another presentation before any child was used: the retry of a lost response, or the
                // late request of a holder that is gone. Nobody can tell which child will be held, so
                // none is withdrawn now: the first one used decides.
                return .rotated(try await issueChild(of: hash, for: member, record: record, now: now, in: transaction))
            }
            guard !record.isSessionRevoked, now < record.expiresAt,
                  let member = try await MemberStore.find(id: record.memberID, in: transaction)
            else { return .invalid }
            // The first use of this token: it wins over its siblings, if it has any.
            if let parent = record.parentHash {
                try await SessionStore.withdrawSiblings(of: hash, parent: parent, now: now, in: transaction)
            }
            try await SessionStore.markUsed(hash: hash, now: now, in: transaction)
            return .rotated(try await issueChild(of: hash, for: member, record: record, now: now, in: transaction))
        }
        switch outcome {
        case .rotated(let tokens): return tokens
        case .reused: throw APIError.refreshTokenReused
        case .invalid: throw APIError.invalidRefreshToken
        case .clientGone: throw ClientGoneError()
        case .wrongKey: throw APIError.refreshWithoutBoundKey
        }
    }

    /// Whether presenting a used token again gets it another child: the grace period is on, the
    /// token was not withdrawn, the family is live, the first use was at most ``refreshReuseGrace``
    /// ago (whole seconds; `used_at` never moves, so presentations cannot stretch the window), and
    /// the token has children, none of them used. A used child means the family moved on past
    /// this token: presenting it then is reuse, whoever it comes from. A token with no recorded
    /// child was used before the server recorded children (schema 1): strict reuse.
    private func mayIssueSibling(
        presenting record: RefreshTokenRecord, hash: String, now: Date, in transaction: Transaction
    ) async throws -> Bool {
        guard refreshReuseGrace > .zero, !record.isWithdrawn, !record.isSessionRevoked,
              let usedAt = record.usedAt, now.wholeSeconds.timeIntervalSince(usedAt) <= refreshReuseGrace.timeInterval
        else { return false }
        let children = try await SessionStore.children(of: hash, in: transaction)
        return children.issued > 0 && children.used == 0
    }

    /// Issues a new pair in the family of `record` (bound to its key, if it is) whose refresh
    /// token is a child of `parent`.
    private func issueChild(
        of parent: String, for member: MemberRecord, record: RefreshTokenRecord, now: Date, in transaction: Transaction
    ) async throws -> TokensDTO {
        let tokens = try await issueTokens(
            for: member, sessionID: record.sessionID, jkt: record.boundKeyThumbprint, now: now, in: transaction
        )
        try await SessionStore.recordChild(RandomToken.hash(tokens.refreshToken), of: parent, in: transaction)
        return tokens
    }

    /// Ends the session family of `refreshToken`, which must belong to the caller.
    ///
    /// A refresh token the server does not know ends the caller's own session family instead:
    /// signing out always succeeds for a valid caller, and never answers 401 (which would make a
    /// client refresh just to sign out).
    /// - Throws: 403 `forbidden` when the refresh token belongs to another member.
    func signOut(refreshToken: String, caller: Identity) async throws {
        let hash = RandomToken.hash(refreshToken)
        let now = clock.now()
        try await database.transaction { transaction in
            if let record = try await SessionStore.findRefreshToken(hash: hash, in: transaction) {
                guard record.memberID == caller.memberID else {
                    throw APIError.forbidden("refreshToken: belongs to another member")
                }
                try await SessionStore.revoke(sessionID: record.sessionID, now: now, in: transaction)
            } else {
                try await SessionStore.revoke(sessionID: caller.sessionID, now: now, in: transaction)
            }
        }
    }

    /// Creates the configured admin, or promotes an existing member with that email (and sets the
    /// configured password, so the configuration is the source of truth).
    func ensureAdmin(_ admin: AdminAccount, logger: Logger) async throws {
        let email = Validation.normalizedEmail(admin.email.trimmingCharacters(in: .whitespaces))
        let existing = try await database.transaction { transaction in
            try await MemberStore.find(email: email, in: transaction)
        }
        if let existing, existing.role == .admin, await passwords.verify(admin.password, against: existing.passwordHash) {
            return
        }
        let hash = await passwords.hash(admin.password)
        let now = clock.now().wholeSeconds
        try await database.transaction { transaction in
            if let existing = try await MemberStore.find(email: email, in: transaction) {
                try await MemberStore.makeAdmin(id: existing.id, passwordHash: hash, in: transaction)
            } else {
                let member = MemberRecord(id: UUID(), email: email, passwordHash: hash, nickname: "admin", role: .admin, createdAt: now)
                try await MemberStore.insert(member, in: transaction)
            }
        }
        logger.info("admin account ready", metadata: ["promoted": "\(existing != nil)"])
    }

    private func startSession(for member: MemberRecord, jkt: String?, now: Date, in transaction: Transaction) async throws -> TokensDTO {
        let sessionID = UUID().uuidString.lowercased()
        try await SessionStore.createSession(id: sessionID, memberID: member.id, jkt: jkt, now: now, in: transaction)
        return try await issueTokens(for: member, sessionID: sessionID, jkt: jkt, now: now, in: transaction)
    }

    /// A new pair; for a family bound to the DPoP key `jkt`, the access token carries
    /// `cnf.jkt` and the pair says `tokenType` `DPoP` (RFC 9449 §5).
    private func issueTokens(
        for member: MemberRecord, sessionID: String, jkt: String?, now: Date, in transaction: Transaction
    ) async throws -> TokensDTO {
        let refreshToken = RandomToken.make(byteCount: 32)
        try await SessionStore.insertRefreshToken(
            hash: RandomToken.hash(refreshToken), sessionID: sessionID,
            issuedAt: now, expiresAt: now + refreshTokenLifetime.timeInterval, in: transaction
        )
        let access = try await accessTokens.issue(memberID: member.id, sessionID: sessionID, role: member.role, jkt: jkt)
        return TokensDTO(
            accessToken: access.token, refreshToken: refreshToken, tokenType: jkt == nil ? "Bearer" : "DPoP",
            expiresIn: Int(accessTokens.lifetime.components.seconds), expiresAt: access.expiresAt
        )
    }
}

extension Date {
    /// This date without its fractional seconds (the database and JSON keep whole seconds).
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
