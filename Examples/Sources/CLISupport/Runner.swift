public import ArgumentParser
import AppRepository
public import SessionEngine
import TokenStore

/// Runs a command's body with its ``CommandContext`` and turns every failure into a
/// message on standard error and the matching ``ExitStatus``.
public enum Runner {
    /// Runs `body`.
    ///
    /// - Parameters:
    ///   - options: The global options (server, store, output).
    ///   - purpose: `.startSession` for sign-in and sign-up.
    ///   - requiresAdmin: Check first that the signed-in member is an admin (app-admin), and
    ///     stop with ``ExitStatus/forbidden`` when not.
    ///   - movesAsideUndecryptable: For `.startSession`: a store that does not decrypt is moved
    ///     aside too (`sign-in --move-aside`), not only a damaged one.
    ///   - dpop: For `.startSession`: the kind of DPoP key the sign-in binds the session to.
    /// - Throws: `ExitCode` with the failure's status, after printing why.
    public static func run(
        _ options: GlobalOptions,
        purpose: CommandContext.Purpose = .useSession,
        requiresAdmin: Bool = false,
        movesAsideUndecryptable: Bool = false,
        dpop: DPoPKeyKind? = nil,
        _ body: (CommandContext) async throws -> Void
    ) async throws(ExitCode) {
        try await run(options, purpose: purpose, requiresAdmin: requiresAdmin, movesAsideUndecryptable: movesAsideUndecryptable,
                      dpop: dpop, prepare: {}) { context, _ in
            try await body(context)
        }
    }

    /// Runs `prepare` (for example asking for the email and password) before the store is
    /// opened (which may ask for its passphrase), then `body` with what `prepare` returned.
    public static func run<Prepared>(
        _ options: GlobalOptions,
        purpose: CommandContext.Purpose = .useSession,
        requiresAdmin: Bool = false,
        movesAsideUndecryptable: Bool = false,
        dpop: DPoPKeyKind? = nil,
        prepare: () throws(CLIError) -> Prepared,
        _ body: (CommandContext, Prepared) async throws -> Void
    ) async throws(ExitCode) {
        do {
            let prepared = try prepare()
            let context = try await CommandContext.make(options, purpose: purpose, dpop: dpop)
            do {
                if purpose == .startSession {
                    // A store that cannot be read is replaced only when that loses nothing: a
                    // damaged one (truncated, foreign, another format version) is moved aside by
                    // the sign-in's save, once the server accepted it, and the program says where
                    // (MovingAsideTokenStore). One that does not decrypt stops here unless the
                    // user asked to move it (--move-aside): a mistyped passphrase looks the same,
                    // and the file must then stay as it is. The error says which file and why.
                    do {
                        _ = try await context.service.isSignedIn()
                    } catch let error as TokenStoreError
                                where UnreadableStore.signInMovesAside(error, includingUndecryptable: movesAsideUndecryptable) {
                        context.output.note("\(error); the sign-in moves it aside")
                    }
                }
                try await OneShotSession.around(context, purpose: purpose) {
                    if requiresAdmin {
                        try await AdminCheck.requireAdmin(context.service)
                    }
                    try await body(context, prepared)
                }
            } catch {
                await context.close()
                throw error
            }
            await context.close()
        } catch {
            throw fail(CLIError(error))
        }
    }

    /// Prints `error` and returns the exit code to throw.
    public static func fail(_ error: CLIError) -> ExitCode {
        Output.writeError("\(Program.name): \(error)")
        return ExitCode(error.status.rawValue)
    }
}

/// The admin program's gate: the signed-in member must be an admin.
enum AdminCheck {
    /// Asks the server who is signed in; throws ``ExitStatus/forbidden`` unless an admin.
    static func requireAdmin(_ service: RepositoryService) async throws {
        let member = try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }
        try requireAdmin(member)
    }

    /// Throws ``ExitStatus/forbidden`` unless `member` is an admin.
    static func requireAdmin(_ member: Member) throws(CLIError) {
        guard member.role == .admin else {
            throw CLIError(.forbidden, "\(TerminalText.safe(member.nickname)) is not an admin; \(Program.name) is for admins only",
                           hint: "sign in with an admin account: \(Program.name) sign-in --email ADMIN_EMAIL")
        }
    }
}

/// `--store memory` keeps nothing between runs, so with `APP_EMAIL`/`APP_PASSWORD` set each
/// command signs in first and out afterwards: one session per command, handy in CI.
enum OneShotSession {
    static func around(_ context: CommandContext, purpose: CommandContext.Purpose, _ body: () async throws -> Void) async throws {
        guard context.storeKind == .memory, purpose == .useSession else {
            return try await body()
        }
        guard let email = Environment.value(Environment.email), let password = Environment.value(Environment.password) else {
            throw CLIError(.notSignedIn, "not signed in: the memory store starts empty in every run",
                           hint: "set APP_EMAIL and APP_PASSWORD (each command then signs in and out), or use --store file")
        }
        try await context.service.signIn(email: email, password: password)
        do {
            try await body()
        } catch {
            _ = try? await context.service.signOut()
            throw error
        }
        _ = try? await context.service.signOut()
    }
}
