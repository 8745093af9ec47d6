import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing
import TokenStore

extension LiveServer {
    /// Every per-domain repository on RepositoryService against the live server.
    @Suite("repositories on RepositoryService")
    struct LiveRepositoryTests {
        @Test("members, questions, answers, posts, comments and reports through one signed-in service")
        func memberRepositories() async throws {
            let service = try SlowTestEnvironment.service()
            let other = try SlowTestEnvironment.service()
            let me = try await service.signUp(email: LiveServerEnvironment.uniqueEmail("repo"),
                                              password: SlowTestEnvironment.password, nickname: "repo")
            try await other.signInAnonymously()

            #expect(try await service.members.fetchMe() == me)
            #expect(try await service.members.updateMe(nickname: "renamed").nickname == "renamed")
            #expect(try await service.members.fetchMe().nickname == "renamed")

            let today = try await service.questions.fetchToday()
            let questions = try await service.questions.fetchList(pageSize: 3)
            #expect(questions.items.count == 3)

            let answer = try await service.answers.create(questionID: today.id, content: "Through the repository")
            #expect(try await service.answers.fetchList(questionID: today.id, pageSize: 100).items.contains { $0.id == answer.id })
            #expect(try await service.answers.fetchListOfMine().items.map(\.id) == [answer.id])

            let post = try await service.posts.create(content: "Repository post")
            #expect(try await other.posts.fetch(id: post.id).author?.nickname == "renamed")
            #expect(try await other.posts.fetchList(pageSize: 10).items.contains { $0.id == post.id })
            #expect(try await other.posts.toggleLike(id: post.id).isLiked)

            let comment = try await other.comments.create(postID: post.id, content: "Hello from anonymous")
            #expect(try await service.comments.fetchList(postID: post.id).items.map(\.id) == [comment.id])
            let report = try await service.reports.create(targetType: .comment, targetID: comment.id, reason: "rude")
            #expect(report.targetId == comment.id)

            let forbidden = await #expect(throws: NetworkError.self) { try await service.admin.fetchReports() }
            #expect(forbidden?.statusCode == 403)

            try await other.comments.delete(id: comment.id)
            try await service.answers.delete(id: answer.id)
            try await service.posts.delete(id: post.id)
            try await service.deleteAccount()
            #expect(try await service.isSignedIn() == false)
            try await other.signOut()
        }

        @Test("the admin repository lists reports for an admin", .adminAccount)
        func adminRepository() async throws {
            let admin = try SlowTestEnvironment.service()
            try await admin.signIn(email: LiveServerEnvironment.adminEmail ?? "", password: LiveServerEnvironment.adminPassword ?? "")
            let member = try SlowTestEnvironment.service()
            try await member.signInAnonymously()
            let post = try await member.posts.create(content: "Report me")
            let report = try await member.reports.create(targetType: .post, targetID: post.id, reason: "test")

            let reports = try await admin.admin.fetchReports(pageSize: 100)
            #expect(reports.items.contains { $0.id == report.id })
            try await admin.posts.delete(id: post.id)
            try await admin.signOut()
            try await member.signOut()
        }
    }
}
