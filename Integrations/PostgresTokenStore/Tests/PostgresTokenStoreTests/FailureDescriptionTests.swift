import Foundation
import PostgresTokenStore
import Testing

@Suite("What a PostgreSQL failure says")
struct FailureDescriptionTests {
    @Test("an app showing the failure's localized description shows the SQLSTATE and the server's message")
    func localizedDescriptionNamesTheServersReason() {
        let failure: any Error = PostgresTokenStoreFailure(sqlState: "42501", serverMessage: "permission denied for table app_token_store",
                                                           clientError: "server")
        #expect(failure.localizedDescription == "SQLSTATE 42501: permission denied for table app_token_store")
    }

    @Test("without a SQLSTATE it shows the client's error code")
    func localizedDescriptionWithoutAServerAnswer() {
        let failure: any Error = PostgresTokenStoreFailure(sqlState: nil, serverMessage: nil, clientError: "connectionError")
        #expect(failure.localizedDescription == "connectionError")
    }
}
