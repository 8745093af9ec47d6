import CLISupport
import Foundation
import TokenStore

/// The store of an `app-oauth` command, bound to the sign-in profile beside it: the session
/// (tokens in the store) and its profile (issuer, client, flow in `.profile.json`) change as one
/// unit, so that no crash, kill or race leaves live tokens without the profile they were issued
/// under, or with another sign-in's profile (whose issuer would then be sent them).
///
/// Every change happens inside the store's exclusive section, the one every process sharing
/// the store takes turns through:
///
/// - A sign-in's save (``Role/signingIn(_:)``) clears the old tokens, then writes the new
///   profile (an atomic rename), then saves the new tokens. Killed after any step, the store
///   holds either no tokens or the tokens of the profile beside it.
/// - Clearing (a sign-out, a session the server ended) removes the tokens, then the profile.
/// - A command that started with a profile (``Role/using(_:)``) reads tokens only while the
///   profile beside them is still that one: after another sign-in replaced it, the store looks
///   empty to the command (``replaced`` says why), and its tokens never go to the old issuer.
///   Tokens are read before the profile, and a sign-in writes the profile before the tokens,
///   so a reader outside the section that gets a new sign-in's tokens sees its profile too.
final class ProfileBoundStore: TokenStore {
    /// What the command does with the session.
    enum Role: Sendable {
        /// Starts a session under this profile (`sign-in`).
        case signingIn(OAuthProfile)
        /// Uses or ends the session of the profile the command read when it started (`nil`
        /// when there was none, `.damaged` when it could not be read).
        case using(ProfileState)
    }

    /// What is beside the store, as far as telling sessions apart goes.
    enum ProfileState: Equatable, Sendable {
        /// No profile file.
        case none
        /// A profile file that cannot be read.
        case damaged
        /// A profile.
        case profile(OAuthProfile.Identity)

        /// The state of the profile at `url`, read now.
        init(at url: URL) {
            do {
                self = try OAuthProfile.load(url).map { .profile($0.identity) } ?? .none
            } catch {
                self = .damaged
            }
        }
    }

    private let inner: any TokenStore
    private let profileURL: URL
    private let role: Role
    private let replacedFlag = LockedValue(false)

    /// - Parameters:
    ///   - inner: The store the command opened.
    ///   - profileURL: Where the profile lives (beside the store file).
    ///   - role: Whether the command signs in, or uses the session of the profile it read.
    init(_ inner: any TokenStore, profileURL: URL, role: Role) {
        self.inner = inner
        self.profileURL = profileURL
        self.role = role
    }

    /// Whether the store held tokens that a reading found under another profile than the
    /// command's: another sign-in replaced the session while the command ran.
    var replaced: Bool { replacedFlag.withLock { $0 } }

    /// The stored credentials, if they belong to the command's profile (see the type's discussion).
    func load() async throws(TokenStoreError) -> Credentials? {
        guard let credentials = try await inner.load() else { return nil }
        guard case let .using(expected) = role else { return credentials }
        guard ProfileState(at: profileURL) == expected else {
            replacedFlag.withLock { $0 = true }
            return nil
        }
        return credentials
    }

    /// Saves `credentials`; a sign-in first clears the old tokens and writes its profile.
    /// Called inside the exclusive section (the session engine saves there).
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        if case let .signingIn(profile) = role {
            try await inner.clear()
            try write(profile)
        }
        try await inner.save(credentials)
    }

    /// Removes the tokens, then the profile if it is still the command's.
    func clear() async throws(TokenStoreError) {
        try await inner.clear()
        removeProfileIfOwn()
    }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }

    /// Inside the exclusive section: removes the command's profile when the store holds no
    /// session (one the server ended, a sign-in killed before its save), so that the next
    /// command says "not signed in" cleanly. Whether a profile was removed.
    @discardableResult
    func removeProfileWithoutSession() async throws -> Bool {
        try await withExclusiveAccess { [self] in
            guard try await inner.load() == nil, isOwnProfile(ProfileState(at: profileURL)) else { return false }
            removeProfileIfOwn()
            return true
        }
    }

    /// Inside the exclusive section: rewrites the sign-in's profile as `profile` (the ID token's
    /// claims added), unless another sign-in has replaced it meanwhile. Whether it was written.
    @discardableResult
    func update(_ profile: OAuthProfile) async throws -> Bool {
        try await withExclusiveAccess { [self] in
            guard ProfileState(at: profileURL) == .profile(profile.identity) else { return false }
            try write(profile)
            return true
        }
    }

    private func isOwnProfile(_ state: ProfileState) -> Bool {
        switch role {
        case let .signingIn(profile): state == .profile(profile.identity)
        case let .using(expected): state == expected
        }
    }

    private func removeProfileIfOwn() {
        guard isOwnProfile(ProfileState(at: profileURL)) else { return }
        try? FileManager.default.removeItem(at: profileURL)
    }

    private func write(_ profile: OAuthProfile) throws(TokenStoreError) {
        do {
            try profile.save(profileURL)
        } catch {
            throw TokenStoreError(kind: .io, path: profileURL.path, reason: "the sign-in profile cannot be written: \(error.message)")
        }
    }
}
