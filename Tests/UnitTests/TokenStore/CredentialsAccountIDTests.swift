import Foundation
import NetworkService
import Testing
import TokenStore

@Suite("Credentials name their account accountID, stored under the key stores have always used")
struct CredentialsAccountIDTests {
    @Test("credentials are written with the key memberID, so stores written before the rename and programs still on it read them")
    func writtenUnderTheOldKey() throws {
        let credentials = Credentials(accessToken: AccessToken("a"), refreshToken: "r", accessTokenExpiresAt: nil, accountID: "kim")
        let json = String(decoding: try JSONEncoder().encode(credentials), as: UTF8.self)
        #expect(json.contains(#""memberID":"kim""#))
        #expect(!json.contains("accountID"))
    }

    @Test("credentials a store wrote before the rename read with their account id")
    func readFromTheOldKey() throws {
        let json = #"{"accessToken":"a","refreshToken":"r","memberID":"kim"}"#
        let credentials = try JSONDecoder().decode(Credentials.self, from: Data(json.utf8))
        #expect(credentials.accountID == "kim")
    }

    @Test("printing credentials names the account and redacts both tokens")
    func description() {
        let credentials = Credentials(accessToken: AccessToken("secret-access"), refreshToken: "secret-refresh",
                                      accessTokenExpiresAt: nil, accountID: "kim")
        #expect(String(describing: credentials).hasPrefix("Credentials(account: kim, accessToken: <redacted>"))
        #expect(!String(describing: credentials).contains("secret"))
    }
}
