import AppRepository
import Foundation
import NetworkService
import SessionEngine
import Testing

/// Every static API function against the contract (docs/CONTRACT.md): the request it builds
/// (method, path, query, body, bearer token) and the response it decodes.
@Suite("Static API functions speak the contract")
struct StaticAPITests {
    static let token = AccessToken("access-token-1")
    static let memberID = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let date = Date(timeIntervalSince1970: 1_795_852_800)
    static let dateText = "2026-11-28T08:00:00Z"

    static let memberJSON = #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","nickname":"kim","email":"kim@example.com","role":"member","createdAt":"2026-11-28T08:00:00Z"}"#
    static let tokensJSON = #"{"accessToken":"a1","refreshToken":"r1","tokenType":"Bearer","expiresIn":900,"expiresAt":"2026-11-28T08:15:00Z"}"#
    static let authorJSON = #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","nickname":"kim"}"#
    static let questionJSON = #"{"id":3,"content":"What made you smile?","answerCount":2,"isAnswered":true,"createdAt":"2026-11-28T08:00:00Z"}"#
    static let answerJSON = #"{"id":11,"questionId":3,"content":"Sunshine","author":\#(authorJSON),"isMine":true,"createdAt":"2026-11-28T08:00:00Z"}"#
    static let postJSON = #"{"id":7,"content":"Hello","isAnonymous":true,"author":null,"isMine":true,"likeCount":1,"commentCount":0,"isLiked":false,"createdAt":"2026-11-28T08:00:00Z"}"#
    static let commentJSON = #"{"id":21,"postId":7,"content":"Nice","author":\#(authorJSON),"isMine":false,"createdAt":"2026-11-28T08:00:00Z"}"#
    static let reportJSON = #"{"id":5,"targetType":"comment","targetId":21,"reason":"spam","author":\#(authorJSON),"isMine":true,"createdAt":"2026-11-28T08:00:00Z"}"#

    static func page(_ item: String) -> String { #"{"items":[\#(item)],"nextThreshold":3,"hasNext":true}"# }

    static let member = Member(id: memberID, nickname: "kim", email: "kim@example.com", role: .member, createdAt: date)
    static let author = Author(id: memberID, nickname: "kim")
    static let tokens = Tokens(accessToken: AccessToken("a1"), refreshToken: "r1", expiresIn: 900, expiresAt: date.addingTimeInterval(900))
    static let question = Question(id: 3, content: "What made you smile?", answerCount: 2, isAnswered: true, createdAt: date)
    static let answer = Answer(id: 11, questionId: 3, content: "Sunshine", author: author, isMine: true, createdAt: date)
    static let post = Post(id: 7, content: "Hello", isAnonymous: true, author: nil, isMine: true, likeCount: 1,
                           commentCount: 0, isLiked: false, createdAt: date)
    static let comment = Comment(id: 21, postId: 7, content: "Nice", author: author, isMine: false, createdAt: date)
    static let report = Report(id: 5, targetType: .comment, targetId: 21, reason: "spam", author: author, isMine: true, createdAt: date)

    /// One row of the contract: the call, what must go on the wire, and what must come back.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPMethod
        let target: String
        let body: [String: String]?
        let bearer: Bool
        let status: Int
        let reply: String
        let call: @Sendable (Server) async throws -> any Equatable & Sendable
        let expected: any Equatable & Sendable
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "AuthAPI.signUp", method: .post, target: "/v1/auth/sign-up",
            body: ["email": "kim@example.com", "password": "password1", "nickname": "kim"], bearer: false,
            status: 201, reply: #"{"member":\#(memberJSON),"tokens":\#(tokensJSON)}"#,
            call: { try await AuthAPI.signUp(email: "kim@example.com", password: "password1", nickname: "kim", server: $0) },
            expected: AuthSession(member: member, tokens: tokens)),
        Row(name: "AuthAPI.signIn", method: .post, target: "/v1/auth/sign-in",
            body: ["email": "kim@example.com", "password": "password1"], bearer: false,
            status: 200, reply: #"{"member":\#(memberJSON),"tokens":\#(tokensJSON)}"#,
            call: { try await AuthAPI.signIn(email: "kim@example.com", password: "password1", server: $0) },
            expected: AuthSession(member: member, tokens: tokens)),
        Row(name: "AuthAPI.signInAnonymously", method: .post, target: "/v1/auth/anonymous", body: nil, bearer: false,
            status: 201, reply: #"{"member":\#(memberJSON),"tokens":\#(tokensJSON)}"#,
            call: { try await AuthAPI.signInAnonymously(server: $0) },
            expected: AuthSession(member: member, tokens: tokens)),
        Row(name: "AuthAPI.refresh", method: .post, target: "/v1/auth/refresh", body: ["refreshToken": "r0"], bearer: false,
            status: 200, reply: #"{"tokens":\#(tokensJSON)}"#,
            call: { try await AuthAPI.refresh(refreshToken: "r0", server: $0) }, expected: tokens),
        Row(name: "AuthAPI.signOut", method: .post, target: "/v1/auth/sign-out", body: ["refreshToken": "r0"], bearer: true,
            status: 204, reply: "",
            call: { try await AuthAPI.signOut(refreshToken: "r0", server: $0, accessToken: token); return true }, expected: true),
        Row(name: "MemberAPI.fetchMe", method: .get, target: "/v1/members/me", body: nil, bearer: true,
            status: 200, reply: memberJSON,
            call: { try await MemberAPI.fetchMe(server: $0, accessToken: token) }, expected: member),
        Row(name: "MemberAPI.updateMe", method: .patch, target: "/v1/members/me", body: ["nickname": "kim"], bearer: true,
            status: 200, reply: memberJSON,
            call: { try await MemberAPI.updateMe(nickname: "kim", server: $0, accessToken: token) }, expected: member),
        Row(name: "MemberAPI.deleteMe", method: .delete, target: "/v1/members/me", body: nil, bearer: true,
            status: 204, reply: "",
            call: { try await MemberAPI.deleteMe(server: $0, accessToken: token); return true }, expected: true),
        Row(name: "QuestionAPI.fetchToday", method: .get, target: "/v1/questions/today", body: nil, bearer: true,
            status: 200, reply: questionJSON,
            call: { try await QuestionAPI.fetchToday(server: $0, accessToken: token) }, expected: question),
        Row(name: "QuestionAPI.fetchList", method: .get, target: "/v1/questions?threshold=10&pageSize=5", body: nil, bearer: true,
            status: 200, reply: page(questionJSON),
            call: { try await QuestionAPI.fetchList(threshold: 10, pageSize: 5, server: $0, accessToken: token) },
            expected: Page(items: [question], nextThreshold: 3, hasNext: true)),
        Row(name: "AnswerAPI.create", method: .post, target: "/v1/questions/3/answers", body: ["content": "Sunshine"], bearer: true,
            status: 201, reply: answerJSON,
            call: { try await AnswerAPI.create(questionID: 3, content: "Sunshine", server: $0, accessToken: token) }, expected: answer),
        Row(name: "AnswerAPI.fetchList", method: .get, target: "/v1/questions/3/answers?pageSize=20", body: nil, bearer: true,
            status: 200, reply: page(answerJSON),
            call: { try await AnswerAPI.fetchList(questionID: 3, pageSize: 20, server: $0, accessToken: token) },
            expected: Page(items: [answer], nextThreshold: 3, hasNext: true)),
        Row(name: "AnswerAPI.fetchListOfMine", method: .get, target: "/v1/answers/mine?threshold=12", body: nil, bearer: true,
            status: 200, reply: page(answerJSON),
            call: { try await AnswerAPI.fetchListOfMine(threshold: 12, server: $0, accessToken: token) },
            expected: Page(items: [answer], nextThreshold: 3, hasNext: true)),
        Row(name: "AnswerAPI.delete", method: .delete, target: "/v1/answers/11", body: nil, bearer: true,
            status: 204, reply: "",
            call: { try await AnswerAPI.delete(id: 11, server: $0, accessToken: token); return true }, expected: true),
        Row(name: "PostAPI.fetchList", method: .get, target: "/v1/posts", body: nil, bearer: true,
            status: 200, reply: page(postJSON),
            call: { try await PostAPI.fetchList(server: $0, accessToken: token) },
            expected: Page(items: [post], nextThreshold: 3, hasNext: true)),
        Row(name: "PostAPI.create", method: .post, target: "/v1/posts", body: ["content": "Hello", "isAnonymous": "true"], bearer: true,
            status: 201, reply: postJSON,
            call: { try await PostAPI.create(content: "Hello", isAnonymous: true, server: $0, accessToken: token) }, expected: post),
        Row(name: "PostAPI.fetch", method: .get, target: "/v1/posts/7", body: nil, bearer: true,
            status: 200, reply: postJSON,
            call: { try await PostAPI.fetch(id: 7, server: $0, accessToken: token) }, expected: post),
        Row(name: "PostAPI.delete", method: .delete, target: "/v1/posts/7", body: nil, bearer: true,
            status: 204, reply: "",
            call: { try await PostAPI.delete(id: 7, server: $0, accessToken: token); return true }, expected: true),
        Row(name: "PostAPI.toggleLike", method: .post, target: "/v1/posts/7/like", body: nil, bearer: true,
            status: 200, reply: #"{"likeCount":2,"isLiked":true}"#,
            call: { try await PostAPI.toggleLike(id: 7, server: $0, accessToken: token) },
            expected: LikeState(likeCount: 2, isLiked: true)),
        Row(name: "CommentAPI.fetchList", method: .get, target: "/v1/posts/7/comments?threshold=30&pageSize=2", body: nil, bearer: true,
            status: 200, reply: page(commentJSON),
            call: { try await CommentAPI.fetchList(postID: 7, threshold: 30, pageSize: 2, server: $0, accessToken: token) },
            expected: Page(items: [comment], nextThreshold: 3, hasNext: true)),
        Row(name: "CommentAPI.create", method: .post, target: "/v1/posts/7/comments", body: ["content": "Nice"], bearer: true,
            status: 201, reply: commentJSON,
            call: { try await CommentAPI.create(postID: 7, content: "Nice", server: $0, accessToken: token) }, expected: comment),
        Row(name: "CommentAPI.delete", method: .delete, target: "/v1/comments/21", body: nil, bearer: true,
            status: 204, reply: "",
            call: { try await CommentAPI.delete(id: 21, server: $0, accessToken: token); return true }, expected: true),
        Row(name: "ReportAPI.create", method: .post, target: "/v1/reports",
            body: ["targetType": "comment", "targetId": "21", "reason": "spam"], bearer: true,
            status: 201, reply: reportJSON,
            call: { try await ReportAPI.create(targetType: .comment, targetID: 21, reason: "spam", server: $0, accessToken: token) },
            expected: report),
        Row(name: "AdminAPI.fetchReports", method: .get, target: "/v1/admin/reports?pageSize=50", body: nil, bearer: true,
            status: 200, reply: page(reportJSON),
            call: { try await AdminAPI.fetchReports(pageSize: 50, server: $0, accessToken: token) },
            expected: Page(items: [report], nextThreshold: 3, hasNext: true)),
    ]

    @Test("each function builds the contract's request and decodes its response", arguments: rows)
    func contractRow(row: Row) async throws {
        let transport = TestTransport(always: .json(row.status, row.reply))
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        let result = try await row.call(server)
        #expect(isEqual(result, row.expected), "\(row.name) decoded \(result)")

        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == row.method)
        #expect(request.target == row.target)
        #expect((request.value(forHeaderField: "Authorization") == "Bearer \(Self.token.rawValue)") == row.bearer)
        if let expectedBody = row.body {
            let sent = try #require(request.jsonBody)
            let rendered = sent.mapValues { value -> String in
                if let bool = value as? Bool { return bool ? "true" : "false" }
                return "\(value)"
            }
            #expect(rendered == expectedBody)
            #expect(request.value(forHeaderField: "Content-Type") == "application/json")
        } else {
            #expect(request.body == nil)
        }
    }

    @Test("every static API function is covered by a row")
    func coverage() {
        #expect(Self.rows.count == 24)
        #expect(Set(Self.rows.map(\.name)).count == Self.rows.count)
    }

    private func isEqual(_ lhs: any Equatable & Sendable, _ rhs: any Equatable & Sendable) -> Bool {
        func open<T: Equatable>(_ lhs: T) -> Bool { (rhs as? T) == lhs }
        return open(lhs)
    }

    @Test("a server that echoes the password or refresh token back does not make an error show it")
    func echoedSecretsAreRedacted() async throws {
        let echo = TestTransport { request in
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            return .json(400, #"{"error":{"code":"invalid_request","message":"bad body \#(body.replacingOccurrences(of: "\"", with: "'"))"}}"#)
        }
        let server = try Server(baseURL: "https://api.example.com", transport: echo)
        let signIn = await #expect(throws: NetworkError.self) {
            try await AuthAPI.signIn(email: "kim@example.com", password: "hunter2", server: server)
        }
        #expect(signIn?.description.contains("hunter2") == false, "\(String(describing: signIn))")
        let refresh = await #expect(throws: NetworkError.self) { try await AuthAPI.refresh(refreshToken: "r-42", server: server) }
        #expect(refresh?.description.contains("r-42") == false, "\(String(describing: refresh))")
    }
}
