import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

extension LiveServer {
    /// Every per-domain repository on RepositoryService against the live server.
    @Suite("the API enums through RepositoryService")
    struct LiveRepositoryTests {
        @Test("members, questions, answers, posts, comments and reports through one signed-in service")
        func memberRepositories() async throws {
            let service = try SlowTestEnvironment.service()
            let other = try SlowTestEnvironment.service()
            let me = try await service.signUp(email: LiveServerEnvironment.uniqueEmail("repo"),
                                              password: SlowTestEnvironment.password, nickname: "repo")
            try await other.signInAnonymously()

            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) } == me)
            #expect(try await service.request { try await MemberAPI.updateMe(nickname: "renamed", server: $0, accessToken: $1) }.nickname == "renamed")
            #expect(try await service.request { try await MemberAPI.fetchMe(server: $0, accessToken: $1) }.nickname == "renamed")

            let today = try await service.request { try await QuestionAPI.fetchToday(server: $0, accessToken: $1) }
            let questions = try await service.request { try await QuestionAPI.fetchList(pageSize: 3, server: $0, accessToken: $1) }
            #expect(questions.items.count == 3)

            let answer = try await service.request { try await AnswerAPI.create(questionID: today.id, content: "Through the repository", server: $0, accessToken: $1) }
            #expect(try await service.request { try await AnswerAPI.fetchList(questionID: today.id, pageSize: 100, server: $0, accessToken: $1) }.items.contains { $0.id == answer.id })
            #expect(try await service.request { try await AnswerAPI.fetchListOfMine(server: $0, accessToken: $1) }.items.map(\.id) == [answer.id])

            let post = try await service.request { try await PostAPI.create(content: "Repository post", server: $0, accessToken: $1) }
            #expect(try await other.request { try await PostAPI.fetch(id: post.id, server: $0, accessToken: $1) }.author?.nickname == "renamed")
            #expect(try await other.request { try await PostAPI.fetchList(pageSize: 10, server: $0, accessToken: $1) }.items.contains { $0.id == post.id })
            #expect(try await other.request { try await PostAPI.toggleLike(id: post.id, server: $0, accessToken: $1) }.isLiked)

            let comment = try await other.request { try await CommentAPI.create(postID: post.id, content: "Hello from anonymous", server: $0, accessToken: $1) }
            #expect(try await service.request { try await CommentAPI.fetchList(postID: post.id, server: $0, accessToken: $1) }.items.map(\.id) == [comment.id])
            let report = try await service.request { try await ReportAPI.create(targetType: .comment, targetID: comment.id, reason: "rude", server: $0, accessToken: $1) }
            #expect(report.targetId == comment.id)

            let forbidden = await #expect(throws: NetworkError.self) { try await service.request { try await AdminAPI.fetchReports(server: $0, accessToken: $1) } }
            #expect(forbidden?.statusCode == 403)

            try await other.request { try await CommentAPI.delete(id: comment.id, server: $0, accessToken: $1) }
            try await service.request { try await AnswerAPI.delete(id: answer.id, server: $0, accessToken: $1) }
            try await service.request { try await PostAPI.delete(id: post.id, server: $0, accessToken: $1) }
            try await service.deleteAccount()
            #expect(try await service.isSignedIn() == false)
            try await other.signOut()
        }

        @Test("the admin repository lists reports for an admin", .adminAccount)
        func adminAPI() async throws {
            let admin = try SlowTestEnvironment.service()
            try await admin.signIn(email: LiveServerEnvironment.adminEmail ?? "", password: LiveServerEnvironment.adminPassword ?? "")
            let member = try SlowTestEnvironment.service()
            try await member.signInAnonymously()
            let post = try await member.request { try await PostAPI.create(content: "Report me", server: $0, accessToken: $1) }
            let report = try await member.request { try await ReportAPI.create(targetType: .post, targetID: post.id, reason: "test", server: $0, accessToken: $1) }

            let reports = try await admin.request { try await AdminAPI.fetchReports(pageSize: 100, server: $0, accessToken: $1) }
            #expect(reports.items.contains { $0.id == report.id })
            try await admin.request { try await PostAPI.delete(id: post.id, server: $0, accessToken: $1) }
            try await admin.signOut()
            try await member.signOut()
        }
    }
}
