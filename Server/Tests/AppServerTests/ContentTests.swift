import AppSDKTesting
import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Content, pagination, ownership and validation")
struct ContentTests {
    @Test("pagination parameters out of range or not integers get 400 invalid_request naming them")
    func paginationValidation() async throws {
        try await TestServer.run { api in
            let token = try await api.signUp("nina@example.com").tokens.accessToken
            for (query, field) in [
                ("pageSize=0", "pageSize"), ("pageSize=101", "pageSize"), ("pageSize=abc", "pageSize"), ("pageSize=1.5", "pageSize"),
                ("threshold=0", "threshold"), ("threshold=-3", "threshold"), ("threshold=x", "threshold"),
            ] {
                let response = try await api.send(.get, "/v1/questions?\(query)", token: token)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorCode == "invalid_request", "\(query)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(query)")
            }
            #expect(try await api.send(.get, "/v1/posts?pageSize=100&threshold=1", token: token).status == .ok)
        }
    }

    @Test("pages go newest first, threshold is exclusive and nextThreshold is the last id")
    func pagination() async throws {
        try await TestServer.run { api in
            let token = try await api.signUp("omar@example.com").tokens.accessToken
            var seen: [Int] = []
            var threshold: Int?
            var pages = 0
            repeat {
                let query = "pageSize=3" + (threshold.map { "&threshold=\($0)" } ?? "")
                let page = try await api.send(.get, "/v1/questions?\(query)", token: token).decode(PageDTO<QuestionDTO>.self)
                seen += page.items.map(\.id)
                #expect(page.nextThreshold == (page.hasNext ? page.items.last?.id : nil))
                threshold = page.nextThreshold
                pages += 1
            } while threshold != nil
            #expect(seen.count == 10)
            #expect(seen == seen.sorted(by: >))
            #expect(pages == 4)
            let first = try await api.send(.get, "/v1/questions", token: token).decode(PageDTO<QuestionDTO>.self)
            #expect(first.items.count == 10)
            #expect(first.hasNext == false)
            #expect(first.nextThreshold == nil)
        }
    }

    @Test("today's question is chosen by the UTC date")
    func todaysQuestion() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 86_400 * 20_003 + 3600))
        try await TestServer.run(clock: clock) { api in
            let token = try await api.signUp("pia@example.com").tokens.accessToken
            let today = try await api.send(.get, "/v1/questions/today", token: token).decode(QuestionDTO.self)
            let all = try await api.send(.get, "/v1/questions", token: token).decode(PageDTO<QuestionDTO>.self).items
            #expect(today.id == all.map(\.id).sorted()[20_003 % all.count])
            let answer = try await api.send(.post, "/v1/questions/\(today.id)/answers", token: token, json: #"{"content":"An answer"}"#)
            #expect(answer.status == .created)
            let after = try await api.send(.get, "/v1/questions/today", token: token).decode(QuestionDTO.self)
            #expect(after.isAnswered)
            #expect(after.answerCount == 1)
            let mine = try await api.send(.get, "/v1/answers/mine", token: token).decode(PageDTO<AnswerDTO>.self)
            #expect(mine.items.map(\.questionId) == [today.id])
            #expect(mine.items.first?.isMine == true)
        }
    }

    @Test("only the author or an admin may delete posts, comments and answers (403 forbidden otherwise)")
    func ownership() async throws {
        try await TestServer.run { api in
            let author = try await api.signUp("quinn@example.com").tokens.accessToken
            let stranger = try await api.signUp("rosa@example.com").tokens.accessToken
            let admin = try await api.signInAdmin().tokens.accessToken

            let post = try await api.createPost(token: author)
            let comment = try await api.send(.post, "/v1/posts/\(post.id)/comments", token: author, json: #"{"content":"c"}"#).decode(CommentDTO.self)
            let answer = try await api.send(.post, "/v1/questions/1/answers", token: author, json: #"{"content":"a"}"#).decode(AnswerDTO.self)

            for path in ["/v1/posts/\(post.id)", "/v1/comments/\(comment.id)", "/v1/answers/\(answer.id)"] {
                let response = try await api.send(.delete, path, token: stranger)
                #expect(response.status == .forbidden, "\(path)")
                #expect(response.errorCode == "forbidden", "\(path)")
            }
            #expect(try await api.send(.delete, "/v1/comments/\(comment.id)", token: author).status == .noContent)
            #expect(try await api.send(.delete, "/v1/answers/\(answer.id)", token: admin).status == .noContent)
            #expect(try await api.send(.delete, "/v1/posts/\(post.id)", token: admin).status == .noContent)
            #expect(try await api.send(.delete, "/v1/posts/\(post.id)", token: author).status == .notFound)
        }
    }

    @Test("admin routes answer 403 to members and 200 to admins")
    func adminOnly() async throws {
        try await TestServer.run { api in
            let member = try await api.signUp("sam@example.com").tokens.accessToken
            let post = try await api.createPost(token: member)
            let report = try await api.send(.post, "/v1/reports", token: member, json: #"{"targetType":"post","targetId":\#(post.id),"reason":"spam"}"#)
            #expect(report.status == .created)
            #expect(try report.decode(ReportDTO.self).isMine)

            let denied = try await api.send(.get, "/v1/admin/reports", token: member)
            #expect(denied.status == .forbidden)
            #expect(denied.errorCode == "forbidden")

            let admin = try await api.signInAdmin()
            #expect(admin.member.role == .admin)
            let page = try await api.send(.get, "/v1/admin/reports", token: admin.tokens.accessToken).decode(PageDTO<ReportDTO>.self)
            #expect(page.items.map(\.targetId) == [post.id])
            #expect(page.items.first?.isMine == false)
        }
    }

    @Test("invalid bodies get 400 invalid_request naming the field")
    func validation() async throws {
        try await TestServer.run { api in
            let token = try await api.signUp("tom@example.com").tokens.accessToken
            let cases: [(HTTPRequest.Method, String, String?, String)] = [
                (.post, "/v1/auth/sign-up", #"{"email":"no-at-sign","password":"password-1","nickname":"n"}"#, "email"),
                (.post, "/v1/auth/sign-up", #"{"email":"a@b","password":"password-1","nickname":"n"}"#, "email"),
                (.post, "/v1/auth/sign-up", #"{"email":"x@y.com","password":"short","nickname":"n"}"#, "password"),
                (.post, "/v1/auth/sign-up", #"{"email":"x@y.com","password":"password-1","nickname":"   "}"#, "nickname"),
                (.post, "/v1/auth/sign-up", #"{"email":"x@y.com","password":"password-1"}"#, "nickname"),
                (.post, "/v1/auth/sign-up", #"{"email":42,"password":"password-1","nickname":"n"}"#, "email"),
                (.post, "/v1/auth/sign-up", "not json", "body"),
                (.post, "/v1/auth/sign-up", "[]", "body"),
                (.post, "/v1/auth/sign-up", nil, "body"),
                (.post, "/v1/posts", #"{"content":"","isAnonymous":false}"#, "content"),
                (.post, "/v1/posts", #"{"content":"x"}"#, "isAnonymous"),
                (.post, "/v1/posts", #"{"content":"\#(String(repeating: "x", count: 1001))","isAnonymous":true}"#, "content"),
                (.patch, "/v1/members/me", #"{"nickname":"\#(String(repeating: "n", count: 31))"}"#, "nickname"),
                (.post, "/v1/reports", #"{"targetType":"member","targetId":1,"reason":"r"}"#, "targetType"),
                (.post, "/v1/reports", #"{"targetType":"post","reason":"r"}"#, "targetId"),
                (.post, "/v1/reports", #"{"targetType":"post","targetId":1,"reason":""}"#, "reason"),
                (.get, "/v1/posts/abc", nil, "id"),
            ]
            for (method, path, body, field) in cases {
                let isPublic = path.hasPrefix("/v1/auth")
                let response = try await api.send(method, path, token: isPublic ? nil : token, json: body)
                #expect(response.status == .badRequest, "\(method) \(path) \(body ?? "")")
                #expect(response.errorCode == "invalid_request", "\(method) \(path) \(body ?? "")")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(method) \(path) \(body ?? ""): \(response.errorMessage ?? "")")
            }
        }
    }

    @Test("missing resources get 404 not_found, including report targets and unknown routes")
    func notFound() async throws {
        try await TestServer.run { api in
            let token = try await api.signUp("uma@example.com").tokens.accessToken
            for (method, path, body) in [
                (HTTPRequest.Method.get, "/v1/posts/999", nil as String?),
                (.post, "/v1/questions/999/answers", #"{"content":"a"}"#),
                (.get, "/v1/questions/999/answers", nil),
                (.post, "/v1/posts/999/like", nil),
                (.post, "/v1/reports", #"{"targetType":"comment","targetId":999,"reason":"r"}"#),
                (.get, "/v1/nowhere", nil),
            ] {
                let response = try await api.send(method, path, token: token, json: body)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorCode == "not_found", "\(path)")
            }
        }
    }

    @Test("likes toggle, anonymous posts hide their author but stay the author's")
    func likesAndAnonymousPosts() async throws {
        try await TestServer.run { api in
            let writer = try await api.signUp("vera@example.com").tokens.accessToken
            let reader = try await api.signUp("walt@example.com").tokens.accessToken
            let post = try await api.createPost(token: writer, isAnonymous: true)
            #expect(post.author == nil)
            #expect(post.isMine)
            let seen = try await api.send(.get, "/v1/posts/\(post.id)", token: reader)
            #expect(seen.text.contains(#""author":null"#))
            #expect(try seen.decode(PostDTO.self).isMine == false)

            let liked = try await api.send(.post, "/v1/posts/\(post.id)/like", token: reader).decode(LikeStateDTO.self)
            #expect(liked == LikeStateDTO(likeCount: 1, isLiked: true))
            let unliked = try await api.send(.post, "/v1/posts/\(post.id)/like", token: reader).decode(LikeStateDTO.self)
            #expect(unliked == LikeStateDTO(likeCount: 0, isLiked: false))
            _ = try await api.send(.post, "/v1/posts/\(post.id)/comments", token: reader, json: #"{"content":"nice"}"#)
            let again = try await api.send(.get, "/v1/posts/\(post.id)", token: writer).decode(PostDTO.self)
            #expect(again.commentCount == 1)
        }
    }
}

@Suite("Routing")
struct RoutingTests {
    @Test("a known path with another method gets 405 with an Allow header; literal segments win over captures")
    func methodNotAllowed() async throws {
        try await TestServer.run { api in
            let put = try await api.send(.put, "/v1/posts")
            #expect(put.status == .methodNotAllowed)
            #expect(put.headers[.allow] == "GET, POST")
            #expect(put.errorCode == "invalid_request")
            #expect(try await api.send(.delete, "/v1/answers/mine").headers[.allow] == "GET")
            #expect(try await api.send(.get, "/v1/answers/7").headers[.allow] == "DELETE")
            #expect(try await api.send(.get, "/v1/posts/7/nothing").status == .notFound)
        }
    }
}
