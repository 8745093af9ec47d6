import AppSDKHarness
import Foundation
import Testing

extension CLITests {
    @Suite("--json output")
    struct JSONOutputTests {
        /// Whether `value` is an RFC 3339 UTC date without fractional seconds, as the SDK encodes dates.
        static func isRFC3339(_ value: Any?) -> Bool {
            guard let text = value as? String else { return false }
            return text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/#) != nil
        }

        static func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
        }

        @Test("every result parses as JSON, with RFC 3339 dates and only JSON on stdout", .liveServer)
        func resultsParse() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = cli.fileStore()
            try await cli.signUp(store)

            let me = try Self.object(try await cli.run("app-member", ["whoami", "--json"] + store).output)
            #expect(me["role"] as? String == "member")
            #expect(Self.isRFC3339(me["createdAt"]))

            let post = try Self.object(try await cli.run("app-member", ["posts", "create", "--json", "hello json"] + store).output)
            let postID = try #require(post["id"] as? Int)
            #expect(post["content"] as? String == "hello json")
            #expect(Self.isRFC3339(post["createdAt"]))

            let page = try Self.object(try await cli.run("app-member", ["posts", "list", "--json", "--page-size", "1"] + store).output)
            let items = try #require(page["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(page["hasNext"] is Bool)

            let comment = try Self.object(try await cli.run("app-member", ["comments", "add", "\(postID)", "nice", "--json"] + store).output)
            #expect(comment["postId"] as? Int == postID)
            let comments = try Self.object(try await cli.run("app-member", ["comments", "list", "\(postID)", "--json"] + store).output)
            #expect((comments["items"] as? [Any])?.count == 1)

            let like = try Self.object(try await cli.run("app-member", ["posts", "like", "\(postID)", "--json"] + store).output)
            #expect(like["isLiked"] as? Bool == true)
            #expect(like["likeCount"] as? Int == 1)

            let today = try Self.object(try await cli.run("app-member", ["today", "--json"] + store).output)
            let questionID = try #require(today["id"] as? Int)
            let answer = try Self.object(try await cli.run("app-member", ["answer", "--json", "forty-two"] + store).output)
            #expect(answer["questionId"] as? Int == questionID)
            let mine = try Self.object(try await cli.run("app-member", ["my-answers", "--json"] + store).output)
            #expect((mine["items"] as? [Any])?.count == 1)
            let questions = try Self.object(try await cli.run("app-member", ["questions", "--json", "--page-size", "2"] + store).output)
            #expect((questions["items"] as? [Any])?.count == 2)

            let deleted = try Self.object(try await cli.run("app-member", ["posts", "delete", "\(postID)", "--json"] + store).output)
            #expect((deleted["deleted"] as? [String: Any])?["id"] as? Int == postID)
            let signedOut = try Self.object(try await cli.run("app-member", ["sign-out", "--json"] + store).output)
            #expect(signedOut["serverConfirmed"] as? Bool == true)
        }

        @Test("pages follow --threshold: the next page starts below the last id", .liveServer)
        func pagination() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let store = cli.fileStore()
            try await cli.signUp(store)
            for text in ["one", "two", "three"] {
                #expect(try await cli.run("app-member", ["posts", "create", text] + store).status == Exit.ok)
            }
            let first = try Self.object(try await cli.run("app-member", ["posts", "list", "--json", "--page-size", "2"] + store).output)
            let next = try #require(first["nextThreshold"] as? Int)
            let second = try Self.object(try await cli.run("app-member", ["posts", "list", "--json", "--page-size", "2", "--threshold", "\(next)"] + store).output)
            let ids = try #require(second["items"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
            #expect(!ids.isEmpty && ids.allSatisfy { $0 < next })
        }

        @Test("a one-shot CI session: --store memory with APP_EMAIL and APP_PASSWORD", .liveServer)
        func oneShotSession() async throws {
            let cli = try CLIProcess()
            defer { cli.remove() }
            let email = try await cli.signUp(cli.fileStore())
            let outcome = try await cli.run("app-member", ["whoami", "--json", "--store", "memory"],
                                            environment: ["APP_EMAIL": email, "APP_PASSWORD": CLIProcess.password])
            #expect(outcome.status == Exit.ok, "\(outcome)")
            #expect(try Self.object(outcome.output)["email"] as? String == email)
        }
    }
}
