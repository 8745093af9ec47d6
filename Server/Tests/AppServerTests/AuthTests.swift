import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Signing up, in and out")
struct AuthTests {
    @Test("sign-up answers 201 with a member and a token pair in the contract's shape")
    func signUpShape() async throws {
        try await TestServer.run { api in
            let response = try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"Ann@Example.com","password":"password-1","nickname":"  ann  "}"#)
            #expect(response.status == .created)
            let session = try response.decode(AuthSessionDTO.self)
            #expect(session.member.email == "ann@example.com")
            #expect(session.member.nickname == "ann")
            #expect(session.member.role == .member)
            #expect(session.tokens.tokenType == "Bearer")
            #expect(session.tokens.expiresIn == 900)
            #expect(Base64URL.decode(session.tokens.refreshToken)?.count == 32)
            // Dates are RFC 3339 UTC without fractional seconds; ids are lower-case UUIDs.
            #expect(response.text.contains(#""createdAt":""#))
            let date = try #require(response.text.firstMatch(of: /"expiresAt":"([^"]+)"/)?.1)
            #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
            #expect(response.text.contains(session.member.id.uuidString.lowercased()))
        }
    }

    @Test("a taken email gets 409 email_taken, whatever its case")
    func emailTaken() async throws {
        try await TestServer.run { api in
            _ = try await api.signUp("bob@example.com")
            let response = try await api.send(.post, "/v1/auth/sign-up", json: #"{"email":"BOB@example.com","password":"password-1","nickname":"b"}"#)
            #expect(response.status == .conflict)
            #expect(response.errorCode == "email_taken")
        }
    }

    @Test("a wrong password and an unknown email both get 401 invalid_credentials with the same message")
    func invalidCredentials() async throws {
        try await TestServer.run { api in
            _ = try await api.signUp("carol@example.com")
            let wrong = try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"carol@example.com","password":"wrong-password"}"#)
            let unknown = try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"nobody@example.com","password":"password-1"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(unknown.status == .unauthorized)
            #expect(unknown.errorMessage == wrong.errorMessage)
            let right = try await api.signIn("carol@example.com", password: "password-1")
            #expect(right.member.email == "carol@example.com")
        }
    }

    @Test("anonymous sign-in creates a member without email named anonymous-XXXX")
    func anonymous() async throws {
        try await TestServer.run { api in
            let response = try await api.send(.post, "/v1/auth/anonymous")
            #expect(response.status == .created)
            #expect(response.text.contains(#""email":null"#))
            let session = try response.decode(AuthSessionDTO.self)
            #expect(session.member.nickname.wholeMatch(of: /anonymous-[0-9a-f]{4}/) != nil)
            let me = try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken)
            #expect(try me.decode(MemberDTO.self) == session.member)
        }
    }

    @Test("bcrypt hashes verify the right password and reject a wrong one")
    func bcrypt() async throws {
        let hasher = PasswordHasher(cost: 4)
        let hash = await hasher.hash("correct horse")
        #expect(hash.hasPrefix("$2"))
        #expect(hash != "correct horse")
        #expect(await hasher.verify("correct horse", against: hash))
        #expect(await !hasher.verify("correct horsf", against: hash))
        #expect(await !hasher.verify("correct horse", against: nil))
    }

    @Test("sign-out revokes the family: its access and refresh tokens stop working at once")
    func signOut() async throws {
        try await TestServer.run { api in
            let session = try await api.signUp("dave@example.com")
            let other = try await api.signIn("dave@example.com", password: "password-1")
            let response = try await api.send(
                .post, "/v1/auth/sign-out", token: session.tokens.accessToken,
                json: #"{"refreshToken":"\#(session.tokens.refreshToken)"}"#
            )
            #expect(response.status == .noContent)
            let me = try await api.send(.get, "/v1/members/me", token: session.tokens.accessToken)
            #expect(me.status == .unauthorized)
            #expect(me.errorCode == "invalid_token")
            #expect(me.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            let refresh = try await api.refresh(session.tokens.refreshToken)
            #expect(refresh.status == .unauthorized)
            #expect(refresh.errorCode == "invalid_refresh_token")
            // The member's other session is untouched.
            #expect(try await api.send(.get, "/v1/members/me", token: other.tokens.accessToken).status == .ok)
        }
    }

    @Test("signing out with another member's refresh token is 403 forbidden")
    func signOutOtherMembersToken() async throws {
        try await TestServer.run { api in
            let erin = try await api.signUp("erin@example.com")
            let frank = try await api.signUp("frank@example.com")
            let response = try await api.send(
                .post, "/v1/auth/sign-out", token: erin.tokens.accessToken,
                json: #"{"refreshToken":"\#(frank.tokens.refreshToken)"}"#
            )
            #expect(response.status == .forbidden)
            #expect(response.errorCode == "forbidden")
            #expect(try await api.refresh(frank.tokens.refreshToken).status == .ok)
        }
    }

    @Test("deleting the account ends its sessions and removes its content")
    func deleteMember() async throws {
        try await TestServer.run { api in
            let gina = try await api.signUp("gina@example.com")
            let hank = try await api.signUp("hank@example.com")
            let post = try await api.createPost(token: gina.tokens.accessToken)
            let comment = try await api.send(.post, "/v1/posts/\(post.id)/comments", token: hank.tokens.accessToken, json: #"{"content":"hi"}"#)
            #expect(comment.status == .created)
            #expect(try await api.send(.delete, "/v1/members/me", token: gina.tokens.accessToken).status == .noContent)
            let me = try await api.send(.get, "/v1/members/me", token: gina.tokens.accessToken)
            #expect(me.status == .unauthorized)
            #expect(me.errorCode == "invalid_token")
            #expect(try await api.refresh(gina.tokens.refreshToken).errorCode == "invalid_refresh_token")
            #expect(try await api.send(.get, "/v1/posts/\(post.id)", token: hank.tokens.accessToken).status == .notFound)
            let feed = try await api.send(.get, "/v1/posts", token: hank.tokens.accessToken).decode(PageDTO<PostDTO>.self)
            #expect(feed.items.isEmpty)
            #expect(try await api.send(.post, "/v1/auth/sign-in", json: #"{"email":"gina@example.com","password":"password-1"}"#).status == .unauthorized)
        }
    }
}
