import AppRepository
import AppSDKHarness
import Foundation
import NetworkService
import SessionEngine
import Testing

extension LiveServer {
    /// Every static API function against the live server, with explicit server and token.
    @Suite("static API functions")
    struct LiveStaticAPITests {
        @Test("AuthAPI: sign-up, sign-in, a wrong password, a taken email, anonymous sign-in, refresh and sign-out")
        func auth() async throws {
            let server = try LiveServerEnvironment.server()
            let email = LiveServerEnvironment.uniqueEmail("auth")
            let signedUp = try await AuthAPI.signUp(email: email, password: SlowTestEnvironment.password, nickname: "kim", server: server)
            #expect(signedUp.member.email == email)
            #expect(signedUp.member.nickname == "kim")
            #expect(signedUp.member.role == .member)
            #expect(signedUp.tokens.tokenType == "Bearer")
            #expect((signedUp.tokens.expiresIn ?? 0) > 0)

            let signedIn = try await AuthAPI.signIn(email: email, password: SlowTestEnvironment.password, server: server)
            #expect(signedIn.member == signedUp.member)

            let wrong = await #expect(throws: NetworkError.self) {
                try await AuthAPI.signIn(email: email, password: "not the password", server: server)
            }
            #expect(wrong?.statusCode == 401)
            #expect(wrong?.serverErrorCode == .invalidCredentials)
            #expect(wrong?.description.contains("not the password") == false)

            let taken = await #expect(throws: NetworkError.self) {
                try await AuthAPI.signUp(email: email, password: SlowTestEnvironment.password, nickname: "kim2", server: server)
            }
            #expect(taken?.statusCode == 409)
            #expect(taken?.serverErrorCode == .emailTaken)

            let anonymous = try await AuthAPI.signInAnonymously(server: server)
            #expect(anonymous.member.isAnonymous)

            let refreshed = try await AuthAPI.refresh(refreshToken: signedIn.tokens.refreshToken, server: server)
            #expect(refreshed.refreshToken != signedIn.tokens.refreshToken)
            #expect(try await MemberAPI.fetchMe(server: server, accessToken: refreshed.accessToken) == signedUp.member)

            try await AuthAPI.signOut(refreshToken: refreshed.refreshToken, server: server, accessToken: refreshed.accessToken)
            let afterSignOut = await #expect(throws: NetworkError.self) {
                try await MemberAPI.fetchMe(server: server, accessToken: refreshed.accessToken)
            }
            #expect(afterSignOut?.isAuthenticationFailure == true)
            let refreshAfterSignOut = await #expect(throws: NetworkError.self) {
                try await AuthAPI.refresh(refreshToken: refreshed.refreshToken, server: server)
            }
            #expect(refreshAfterSignOut?.serverErrorCode == .invalidRefreshToken)
        }

        @Test("a reused refresh token revokes its whole session family")
        func refreshTokenReuse() async throws {
            let server = try LiveServerEnvironment.server()
            let session = try await SlowTestEnvironment.signUp()
            let rotated = try await AuthAPI.refresh(refreshToken: session.tokens.refreshToken, server: server)
            let newest = try await AuthAPI.refresh(refreshToken: rotated.refreshToken, server: server)
            // The chain went on from the first token, so presenting it again is reuse.
            let reuse = await #expect(throws: NetworkError.self) {
                try await AuthAPI.refresh(refreshToken: session.tokens.refreshToken, server: server)
            }
            #expect(reuse?.statusCode == 401)
            #expect(reuse?.serverErrorCode == .refreshTokenReused)
            let familyRevoked = await #expect(throws: NetworkError.self) {
                try await AuthAPI.refresh(refreshToken: newest.refreshToken, server: server)
            }
            #expect(familyRevoked?.serverErrorCode == .invalidRefreshToken)
            let accessRevoked = await #expect(throws: NetworkError.self) {
                try await MemberAPI.fetchMe(server: server, accessToken: newest.accessToken)
            }
            #expect(accessRevoked?.statusCode == 401)
        }

        @Test("a refresh retried because its answer was lost gets new tokens within the server's grace period")
        func lostRefreshAnswerIsForgiven() async throws {
            let server = try LiveServerEnvironment.server()
            let session = try await SlowTestEnvironment.signUp()
            let lost = try await AuthAPI.refresh(refreshToken: session.tokens.refreshToken, server: server)
            let retried = try await AuthAPI.refresh(refreshToken: session.tokens.refreshToken, server: server)
            #expect(retried.refreshToken != lost.refreshToken)
            #expect(try await MemberAPI.fetchMe(server: server, accessToken: retried.accessToken).id == session.member.id)
            _ = try await AuthAPI.refresh(refreshToken: retried.refreshToken, server: server)
        }

        @Test("MemberAPI: fetch, rename and delete the account")
        func members() async throws {
            let server = try LiveServerEnvironment.server()
            let session = try await SlowTestEnvironment.signUp(nickname: "before")
            let token = session.tokens.accessToken
            #expect(try await MemberAPI.fetchMe(server: server, accessToken: token).nickname == "before")
            #expect(try await MemberAPI.updateMe(nickname: "after", server: server, accessToken: token).nickname == "after")
            let invalid = await #expect(throws: NetworkError.self) {
                try await MemberAPI.updateMe(nickname: "", server: server, accessToken: token)
            }
            #expect(invalid?.statusCode == 400)
            #expect(invalid?.serverErrorCode == .invalidRequest)
            #expect(invalid?.serverMessage?.contains("nickname") == true)

            try await MemberAPI.deleteMe(server: server, accessToken: token)
            let gone = await #expect(throws: NetworkError.self) { try await MemberAPI.fetchMe(server: server, accessToken: token) }
            #expect(gone?.statusCode == 401)
            let signIn = await #expect(throws: NetworkError.self) {
                try await AuthAPI.signIn(email: session.member.email ?? "", password: SlowTestEnvironment.password, server: server)
            }
            #expect(signIn?.serverErrorCode == .invalidCredentials)
        }

        @Test("QuestionAPI: today's question and pages of questions")
        func questions() async throws {
            let server = try LiveServerEnvironment.server()
            let token = try await SlowTestEnvironment.signUp().tokens.accessToken
            let today = try await QuestionAPI.fetchToday(server: server, accessToken: token)
            #expect(!today.content.isEmpty)

            let first = try await QuestionAPI.fetchList(pageSize: 2, server: server, accessToken: token)
            #expect(first.items.count == 2)
            #expect(first.hasNext)
            #expect(first.items[0].id > first.items[1].id)
            let threshold = try #require(first.nextThreshold)
            #expect(threshold == first.items[1].id)
            let second = try await QuestionAPI.fetchList(threshold: threshold, pageSize: 2, server: server, accessToken: token)
            #expect(second.items.allSatisfy { $0.id < threshold })

            for pageSize in [0, 101] {
                let error = await #expect(throws: NetworkError.self) {
                    try await QuestionAPI.fetchList(pageSize: pageSize, server: server, accessToken: token)
                }
                #expect(error?.statusCode == 400)
                #expect(error?.serverErrorCode == .invalidRequest)
            }
        }

        @Test("AnswerAPI: answer, list, list mine, and delete only one's own")
        func answers() async throws {
            let server = try LiveServerEnvironment.server()
            let author = try await SlowTestEnvironment.signUp(nickname: "author").tokens.accessToken
            let other = try await SlowTestEnvironment.signUp(nickname: "other").tokens.accessToken
            let question = try await QuestionAPI.fetchToday(server: server, accessToken: author)

            let answer = try await AnswerAPI.create(questionID: question.id, content: "Sunshine", server: server, accessToken: author)
            #expect(answer.questionId == question.id)
            #expect(answer.content == "Sunshine")
            #expect(answer.isMine)
            let list = try await AnswerAPI.fetchList(questionID: question.id, pageSize: 100, server: server, accessToken: other)
            let seenByOther = try #require(list.items.first { $0.id == answer.id })
            #expect(!seenByOther.isMine)
            let mine = try await AnswerAPI.fetchListOfMine(server: server, accessToken: author)
            #expect(mine.items.map(\.id) == [answer.id])
            #expect(try await QuestionAPI.fetchToday(server: server, accessToken: author).isAnswered)

            let forbidden = await #expect(throws: NetworkError.self) {
                try await AnswerAPI.delete(id: answer.id, server: server, accessToken: other)
            }
            #expect(forbidden?.statusCode == 403)
            #expect(forbidden?.isAuthenticationFailure == false)
            try await AnswerAPI.delete(id: answer.id, server: server, accessToken: author)
            #expect(try await AnswerAPI.fetchListOfMine(server: server, accessToken: author).items.isEmpty)
            let missing = await #expect(throws: NetworkError.self) {
                try await AnswerAPI.create(questionID: 999_999, content: "x", server: server, accessToken: author)
            }
            #expect(missing?.statusCode == 404)
        }

        @Test("PostAPI: create, fetch, list, like twice, and delete only one's own")
        func posts() async throws {
            let server = try LiveServerEnvironment.server()
            let author = try await SlowTestEnvironment.signUp(nickname: "author").tokens.accessToken
            let other = try await SlowTestEnvironment.signUp(nickname: "other").tokens.accessToken

            let post = try await PostAPI.create(content: "Hello 🌍 & welcome", isAnonymous: true, server: server, accessToken: author)
            #expect(post.isAnonymous)
            #expect(post.author == nil)
            #expect(post.content == "Hello 🌍 & welcome")
            let seen = try await PostAPI.fetch(id: post.id, server: server, accessToken: other)
            #expect(!seen.isMine)
            #expect(seen.author == nil)
            let page = try await PostAPI.fetchList(pageSize: 5, server: server, accessToken: other)
            #expect(page.items.first?.id == post.id)

            let liked = try await PostAPI.toggleLike(id: post.id, server: server, accessToken: other)
            #expect(liked == LikeState(likeCount: 1, isLiked: true))
            let unliked = try await PostAPI.toggleLike(id: post.id, server: server, accessToken: other)
            #expect(unliked == LikeState(likeCount: 0, isLiked: false))

            let forbidden = await #expect(throws: NetworkError.self) { try await PostAPI.delete(id: post.id, server: server, accessToken: other) }
            #expect(forbidden?.statusCode == 403)
            try await PostAPI.delete(id: post.id, server: server, accessToken: author)
            let gone = await #expect(throws: NetworkError.self) { try await PostAPI.fetch(id: post.id, server: server, accessToken: author) }
            #expect(gone?.statusCode == 404)
            #expect(gone?.serverErrorCode == .notFound)
        }

        @Test("CommentAPI: add, list, and delete only one's own")
        func comments() async throws {
            let server = try LiveServerEnvironment.server()
            let author = try await SlowTestEnvironment.signUp(nickname: "author").tokens.accessToken
            let other = try await SlowTestEnvironment.signUp(nickname: "other").tokens.accessToken
            let post = try await PostAPI.create(content: "Comment here", server: server, accessToken: other)

            let comment = try await CommentAPI.create(postID: post.id, content: "Nice", server: server, accessToken: author)
            #expect(comment.postId == post.id)
            #expect(comment.isMine)
            let page = try await CommentAPI.fetchList(postID: post.id, server: server, accessToken: other)
            #expect(page.items.map(\.id) == [comment.id])
            #expect(try await PostAPI.fetch(id: post.id, server: server, accessToken: other).commentCount == 1)

            let forbidden = await #expect(throws: NetworkError.self) { try await CommentAPI.delete(id: comment.id, server: server, accessToken: other) }
            #expect(forbidden?.statusCode == 403)
            try await CommentAPI.delete(id: comment.id, server: server, accessToken: author)
            #expect(try await CommentAPI.fetchList(postID: post.id, server: server, accessToken: other).items.isEmpty)
        }

        @Test("ReportAPI and AdminAPI: members report, admins list reports and remove content, members may not")
        func reportsAndAdmin() async throws {
            let server = try LiveServerEnvironment.server()
            let member = try await SlowTestEnvironment.signUp(nickname: "reporter").tokens.accessToken
            let post = try await PostAPI.create(content: "Buy cheap watches", server: server, accessToken: member)

            let report = try await ReportAPI.create(targetType: .post, targetID: post.id, reason: "spam", server: server, accessToken: member)
            #expect(report.targetType == .post)
            #expect(report.targetId == post.id)
            #expect(report.isMine)
            let missing = await #expect(throws: NetworkError.self) {
                try await ReportAPI.create(targetType: .comment, targetID: 999_999, reason: "spam", server: server, accessToken: member)
            }
            #expect(missing?.statusCode == 404)

            let forbidden = await #expect(throws: NetworkError.self) { try await AdminAPI.fetchReports(server: server, accessToken: member) }
            #expect(forbidden?.statusCode == 403)
            #expect(forbidden?.serverErrorCode == .forbidden)

            guard LiveServerEnvironment.adminEmail != nil else { return }
            let admin = try await SlowTestEnvironment.signInAdmin()
            #expect(admin.member.role == .admin)
            let reports = try await AdminAPI.fetchReports(pageSize: 100, server: server, accessToken: admin.tokens.accessToken)
            #expect(reports.items.contains { $0.id == report.id })
            try await PostAPI.delete(id: post.id, server: server, accessToken: admin.tokens.accessToken)
            await #expect(throws: NetworkError.self) { try await PostAPI.fetch(id: post.id, server: server, accessToken: member) }
        }
    }
}
