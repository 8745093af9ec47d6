import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 11: U+0000 was cut off by SQLite and bcrypt; bcrypt ignores bytes past the 72nd.
@Suite("U+0000 and bcrypt's 72-byte limit")
struct InputHardeningTests {
    static func expectInvalid(_ response: TestResponse, field: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == .badRequest, sourceLocation: sourceLocation)
        #expect(response.errorCode == "invalid_request", sourceLocation: sourceLocation)
        #expect(response.errorMessage?.hasPrefix("\(field):") == true, "\(response.errorMessage ?? response.text)", sourceLocation: sourceLocation)
    }

    @Test("U+0000 in any text field is 400 invalid_request naming the field, never stored cut off")
    func nulInText() async throws {
        try await TestServer.run { api in
            let ann = try await api.signUp("ann@example.com")
            let token = ann.tokens.accessToken
            let post = try await api.createPost(token: token)
            for content in [#"a\u0000b"#, #"\u0000"#, #"abc\u0000"#] {
                let response = try await api.send(.post, "/v1/posts", token: token, json: #"{"content":"\#(content)","isAnonymous":false}"#)
                Self.expectInvalid(response, field: "content")
            }
            Self.expectInvalid(try await api.send(.post, "/v1/posts/\(post.id)/comments", token: token, json: #"{"content":"x\u0000y"}"#), field: "content")
            Self.expectInvalid(try await api.send(.post, "/v1/questions/1/answers", token: token, json: #"{"content":"x\u0000y"}"#), field: "content")
            Self.expectInvalid(
                try await api.send(.post, "/v1/reports", token: token, json: #"{"targetType":"post","targetId":\#(post.id),"reason":"spam\u0000"}"#),
                field: "reason"
            )
            Self.expectInvalid(try await api.send(.patch, "/v1/members/me", token: token, json: #"{"nickname":"ann\u0000evil"}"#), field: "nickname")
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"bob@example.com","password":"password-1","nickname":"bo\u0000b"}"#),
                field: "nickname"
            )
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"bob@example.com\u0000.evil","password":"password-1","nickname":"bob"}"#),
                field: "email"
            )
            Self.expectInvalid(try await api.send(.post, "/v1/auth/refresh", json: #"{"refreshToken":"\u0000"}"#), field: "refreshToken")
            // Nothing was stored cut off.
            let feed = try await api.send(.get, "/v1/posts", token: token).decode(PageDTO<PostDTO>.self)
            #expect(feed.items.map(\.content) == ["hello"])
            #expect(try await api.send(.get, "/v1/members/me", token: token).decode(MemberDTO.self).nickname == "nick")
        }
    }

    @Test("a password with U+0000 is refused at sign-up and sign-in, so it can never equal its prefix")
    func nulInPassword() async throws {
        try await TestServer.run { api in
            let nuls = String(repeating: #"\u0000"#, count: 8)
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"nul@example.com","password":"\#(nuls)","nickname":"n"}"#),
                field: "password"
            )
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"nul@example.com","password":"secret12\u0000ABC","nickname":"n"}"#),
                field: "password"
            )
            // Neither the empty password nor the prefix opens an account.
            #expect(try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"nul@example.com","password":"secret12"}"#).status == .unauthorized)
            _ = try await api.signUp("carl@example.com", password: "secret12")
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"carl@example.com","password":"secret12\u0000ABC"}"#),
                field: "password"
            )
        }
    }

    @Test("a password over 72 UTF-8 bytes is 400 naming password; 72 bytes is accepted and every byte counts")
    func passwordByteLimit() async throws {
        try await TestServer.run { api in
            let long = String(repeating: "a", count: 73)
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"long@example.com","password":"\#(long)","nickname":"l"}"#),
                field: "password"
            )
            // 25 three-byte characters: 75 bytes, though only 25 characters.
            let euros = String(repeating: "€", count: 25)
            Self.expectInvalid(
                try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"long@example.com","password":"\#(euros)","nickname":"l"}"#),
                field: "password"
            )
            let exact = String(repeating: "b", count: 71) + "1"
            _ = try await api.signUp("exact@example.com", password: exact)
            let almost = String(repeating: "b", count: 71) + "2"
            #expect(try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"exact@example.com","password":"\#(almost)"}"#).status == .unauthorized)
            #expect(try await api.signIn("exact@example.com", password: exact).member.email == "exact@example.com")
            #expect(!Validation.isValidPassword(String(repeating: "x", count: 73)))
            #expect(Validation.isValidPassword(String(repeating: "é", count: 36)))
            #expect(!Validation.isValidPassword(String(repeating: "é", count: 37)))
        }
    }

    /// Issue 26 (12): bcrypt reads 72 bytes, so any longer password starting with them signed in.
    @Test("a password over 72 bytes never signs in, not even one whose first 72 bytes are the password; the admin's neither")
    func longPasswordAtSignIn() async throws {
        let exact = String(repeating: "b", count: 71) + "1"
        let adminPassword = String(repeating: "€", count: 24)   // 72 bytes
        var configuration = TestServer.configuration()
        configuration.admin = AdminAccount(email: "root@example.com", password: adminPassword)
        try await TestServer.run(configuration: configuration) { api in
            _ = try await api.signUp("exact@example.com", password: exact)
            for (email, password) in [("exact@example.com", exact), ("root@example.com", adminPassword)] {
                for tail in ["x", "anything else", String(repeating: "z", count: 100)] {
                    let response = try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"\#(email)","password":"\#(password + tail)"}"#)
                    #expect(response.status == .unauthorized, "\(email) + \(tail.count) bytes")
                    #expect(response.errorCode == "invalid_credentials")
                }
                #expect(try await api.signIn(email, password: password).member.email == email)
            }
        }
    }

    @Test("an admin password with U+0000 or over 72 bytes is a configuration error")
    func adminPassword() throws {
        var configuration = TestServer.configuration()
        configuration.admin = AdminAccount(email: "root@example.com", password: "secret12\u{0}ABC")
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.admin = AdminAccount(email: "root@example.com", password: String(repeating: "p", count: 73))
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }
}
