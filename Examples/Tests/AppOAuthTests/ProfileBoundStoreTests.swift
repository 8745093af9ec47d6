@testable import app_oauth
import Foundation
import NetworkService
import Testing
import TokenStore

/// A store that fails one operation, as if the process had been killed just before it: what
/// is on disk then is what a kill at that moment leaves.
private final class KilledBeforeStore: TokenStore {
    enum Step: Sendable { case clear, save }
    let inner: FileTokenStore
    let step: Step?
    init(_ inner: FileTokenStore, killedBefore step: Step?) {
        self.inner = inner
        self.step = step
    }
    private func kill(_ at: Step) throws(TokenStoreError) {
        if step == at { throw TokenStoreError(kind: .io, path: "test", reason: "killed") }
    }
    func load() async throws(TokenStoreError) -> Credentials? { try await inner.load() }
    func save(_ credentials: Credentials) async throws(TokenStoreError) {
        try kill(.save)
        try await inner.save(credentials)
    }
    func clear() async throws(TokenStoreError) {
        try kill(.clear)
        try await inner.clear()
    }
    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withExclusiveAccess(body)
    }
}

/// Issue 33, item 12: the session and its profile as one unit, each step of a sign-in and a
/// sign-out cut short in turn.
@Suite("app-oauth's store bound to its profile")
struct ProfileBoundStoreTests {
    let folder: URL
    let storeURL: URL
    let profileURL: URL
    let old = OAuthProfile(issuer: URL(string: "https://a.example")!, clientID: "cli", mode: .device, scopes: [],
                           clientSecretFile: nil)
    let new = OAuthProfile(issuer: URL(string: "https://b.example")!, clientID: "cli", mode: .device, scopes: [],
                           clientSecretFile: nil)
    let oldTokens = Credentials(accessToken: AccessToken("A-access"), refreshToken: "A-refresh", accessTokenExpiresAt: nil, accountID: "kim")
    let newTokens = Credentials(accessToken: AccessToken("B-access"), refreshToken: "B-refresh", accessTokenExpiresAt: nil, accountID: "kim")

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        storeURL = folder.appendingPathComponent("oauth.json")
        profileURL = folder.appendingPathComponent("oauth.json.profile.json")
    }

    /// A store holding `old`'s session, as a finished sign-in leaves it.
    private func signedInToOld() async throws -> FileTokenStore {
        let file = FileTokenStore(fileURL: storeURL)
        let store = ProfileBoundStore(file, profileURL: profileURL, role: .signingIn(old))
        try await store.withExclusiveAccess { try await store.save(oldTokens) }
        return file
    }

    /// What is on disk: the stored access token and the profile's issuer.
    private func onDisk() async throws -> (token: String?, issuer: String?) {
        let token = try await FileTokenStore(fileURL: storeURL).load()?.accessToken.rawValue
        return (token, try OAuthProfile.load(profileURL)?.issuer.host)
    }

    @Test("a sign-in over another issuer's session, killed before each step: no tokens, or the tokens of the profile beside them")
    func signInKilledAtEachStep() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Before clearing: the old session, whole. Before saving (the profile written): no tokens.
        for (step, expected) in [(KilledBeforeStore.Step.clear, ("A-access", "a.example")), (.save, (nil, "b.example"))] {
            let file = try await signedInToOld()
            let store = ProfileBoundStore(KilledBeforeStore(file, killedBefore: step), profileURL: profileURL, role: .signingIn(new))
            await #expect(throws: TokenStoreError.self) { try await store.withExclusiveAccess { try await store.save(newTokens) } }
            let state = try await onDisk()
            #expect(state.token == expected.0 && state.issuer == expected.1, "killed before \(step): \(state)")
        }
        // The profile cannot be written (its folder is a file): the new tokens are not saved either.
        let file = try await signedInToOld()
        let blocker = folder.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let store = ProfileBoundStore(file, profileURL: blocker.appendingPathComponent("profile.json"), role: .signingIn(new))
        let failure = await #expect(throws: TokenStoreError.self) { try await store.withExclusiveAccess { try await store.save(newTokens) } }
        #expect(failure?.reason.contains("sign-in profile") == true, "\(String(describing: failure))")
        #expect(try await FileTokenStore(fileURL: storeURL).load() == nil)
    }

    @Test("a finished sign-in: the new tokens beside the new profile")
    func signInFinished() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await signedInToOld()
        let store = ProfileBoundStore(file, profileURL: profileURL, role: .signingIn(new))
        try await store.withExclusiveAccess { try await store.save(newTokens) }
        let state = try await onDisk()
        #expect(state.token == "B-access" && state.issuer == "b.example", "\(state)")
    }

    @Test("a sign-out: the tokens go, then the profile; killed before clearing, both stay")
    func signOut() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await signedInToOld()
        let killed = ProfileBoundStore(KilledBeforeStore(file, killedBefore: .clear), profileURL: profileURL,
                                       role: .using(.profile(old.identity)))
        await #expect(throws: TokenStoreError.self) { try await killed.clear() }
        #expect(try await onDisk() == ("A-access", "a.example"))
        let store = ProfileBoundStore(file, profileURL: profileURL, role: .using(.profile(old.identity)))
        try await store.clear()
        #expect(try await onDisk() == (nil, nil))
    }

    @Test("a command that started under the old profile finds no tokens once another sign-in replaced it, and says so")
    func replacedWhileRunning() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await signedInToOld()
        let reader = ProfileBoundStore(file, profileURL: profileURL, role: .using(.profile(old.identity)))
        #expect(try await reader.load()?.accessToken.rawValue == "A-access")
        #expect(!reader.replaced)
        let signIn = ProfileBoundStore(file, profileURL: profileURL, role: .signingIn(new))
        try await signIn.withExclusiveAccess { try await signIn.save(newTokens) }
        #expect(try await reader.load() == nil)
        #expect(reader.replaced)
        // Its clear and its tidying leave the new session alone.
        #expect(try await reader.removeProfileWithoutSession() == false)
        #expect(try await onDisk() == ("B-access", "b.example"))
    }

    @Test("the same issuer and client signed in again is another session: a new sessionID")
    func sameProfileAgain() {
        let again = OAuthProfile(issuer: old.issuer, clientID: old.clientID, mode: old.mode, scopes: old.scopes, clientSecretFile: nil)
        #expect(again.identity != old.identity)
        var withClaims = old
        withClaims.idTokenClaims = ["sub": .string("kim")]
        #expect(withClaims.identity == old.identity)
    }

    @Test("a profile written before sessionID existed still reads, and names its session by the rest")
    func profileWithoutSessionID() throws {
        let json = #"{"clientID":"cli","issuer":"https://a.example","mode":"device","scopes":["openid"]}"#
        let profile = try JSONDecoder().decode(OAuthProfile.self, from: Data(json.utf8))
        #expect(profile.sessionID == nil)
        #expect(profile.identity.issuer.host == "a.example")
    }
}
