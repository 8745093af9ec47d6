import Foundation
import NetworkService
@testable import SessionEngine
import Testing
import TokenStore

@Suite("The engine's state: each transition checks the generation and writes in one step")
struct SessionStateTests {
    let stored = Credentials(accessToken: AccessToken("a1"), refreshToken: "r1", accessTokenExpiresAt: nil, accountID: "kim")
    let renewed = Credentials(accessToken: AccessToken("a2"), refreshToken: "r2", accessTokenExpiresAt: nil, accountID: "kim")

    @Test("rotated credentials the store could not save are not kept once a sign-out started a new generation")
    func unsavedOfAnOldGenerationIsDropped() {
        var state = SessionState()
        let rotation = UnsavedCredentials(replaced: stored, renewed: renewed, generation: state.generation)
        state.startNewGeneration()
        state.keepUnsaved(rotation)
        #expect(state.unsaved == nil)
    }

    @Test("a refresh that fails after a sign-out ends nothing: it neither starts a generation nor forgets the new session's unsaved credentials")
    func failureOfAnOldGenerationWritesNothing() {
        var state = SessionState()
        let startedIn = state.generation
        state.startNewGeneration()
        let current = UnsavedCredentials(replaced: stored, renewed: renewed, generation: state.generation)
        state.keepUnsaved(current)
        #expect(state.refreshFailed(in: startedIn, endsSession: true) == false)
        #expect(state.generation == startedIn + 1)
        #expect(state.unsaved == current)
    }

    @Test("a rotation that arrives after a sign-out may not be saved, and is handed once to that sign-out to revoke")
    func overtakenRotationGoesToTheSignOut() {
        var state = SessionState()
        let rotation = UnsavedCredentials(replaced: stored, renewed: renewed, generation: state.generation)
        state.startNewGeneration()
        #expect(state.rotationArrived(rotation, in: rotation.generation) == false)
        #expect(state.takeOvertaken() == rotation)
        #expect(state.takeOvertaken() == nil)
    }

    @Test("callers join the refresh in flight until it finishes; the next caller then starts another")
    func singleFlight() {
        var state = SessionState()
        var started: [Int] = []
        func start(_ id: Int, _ generation: Int) -> Task<Credentials, any Error> {
            started.append(id)
            return Task { throw CancellationError() }
        }
        let first = state.joinOrStartRefresh(start)
        let joined = state.joinOrStartRefresh(start)
        #expect(first == joined)
        #expect(started.count == 1)
        state.refreshFinished(started[0])
        _ = state.joinOrStartRefresh(start)
        #expect(started.count == 2)
    }
}
