import AppRepository
import Foundation
import NetworkService
import SessionEngine

/// Signs in again through `service` with fresh credentials from `fake`, and returns every
/// event of `events` up to that `signedIn`: so a test can check that no other event was sent
/// without waiting for one.
func eventsUpToNextSignIn(of service: RepositoryService, on fake: FakeAppServer,
                          from events: AsyncStream<SessionEvent>) async throws -> [SessionEvent] {
    let fresh = fake.issueCredentials()
    try await service.startSession(tokens: Tokens(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken),
                                   accountID: fresh.accountID)
    var received: [SessionEvent] = []
    for await event in events {
        received.append(event)
        if case .signedIn = event { break }
    }
    return received
}
