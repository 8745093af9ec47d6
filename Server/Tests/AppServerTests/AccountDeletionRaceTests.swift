import AppServerCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 11: a write racing the caller's own account deletion answered 500 (the session check and
/// the insert ran in separate transactions; the insert then hit the foreign key).
@Suite("Writes racing the caller's account deletion")
struct AccountDeletionRaceTests {
    @Test("after DELETE /v1/members/me every write with the still-valid access token is 401 invalid_token")
    func writesAfterDeletion() async throws {
        try await TestServer.run { api in
            let ann = try await api.signUp("ann@example.com")
            let bob = try await api.signUp("bob@example.com")
            let post = try await api.createPost(token: bob.tokens.accessToken)
            let token = ann.tokens.accessToken
            #expect(try await api.send(.delete, "/v1/members/me", token: token).status == .noContent)
            let writes: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/v1/posts", #"{"content":"x","isAnonymous":false}"#),
                (.post, "/v1/posts/\(post.id)/comments", #"{"content":"x"}"#),
                (.post, "/v1/posts/\(post.id)/like", nil),
                (.post, "/v1/questions/1/answers", #"{"content":"x"}"#),
                (.post, "/v1/reports", #"{"targetType":"post","targetId":\#(post.id),"reason":"x"}"#),
                (.patch, "/v1/members/me", #"{"nickname":"x"}"#),
                (.get, "/v1/members/me", nil),
                (.delete, "/v1/members/me", nil),
            ]
            for (method, path, json) in writes {
                let response = try await api.send(method, path, token: token, json: json)
                #expect(response.status == .unauthorized, "\(method) \(path): \(response.status)")
                #expect(response.errorCode == "invalid_token")
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            }
        }
    }

    @Test("writes racing the deletion answer 201/200 or 401, never 500")
    func concurrentRace() async throws {
        try await TestServer.run { api in
            let bob = try await api.signUp("bob@example.com")
            let post = try await api.createPost(token: bob.tokens.accessToken)
            for round in 0..<3 {
                let ann = try await api.signUp("ann\(round)@example.com")
                let token = ann.tokens.accessToken
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<60 {
                        if index == 20 {
                            group.addTask { try await api.send(.delete, "/v1/members/me", token: token).status.code == 204 ? 0 : -1 }
                        }
                        let (path, json): (String, String) = switch index % 4 {
                        case 0: ("/v1/posts", #"{"content":"x","isAnonymous":false}"#)
                        case 1: ("/v1/posts/\(post.id)/comments", #"{"content":"x"}"#)
                        case 2: ("/v1/questions/1/answers", #"{"content":"x"}"#)
                        default: ("/v1/reports", #"{"targetType":"post","targetId":\#(post.id),"reason":"x"}"#)
                        }
                        group.addTask {
                            let response = try await api.send(.post, path, token: token, json: json)
                            if response.status == .unauthorized { #expect(response.errorCode == "invalid_token") }
                            return response.status.code
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(!statuses.contains(-1))
                #expect(Set(statuses).isSubset(of: [0, 201, 401]), "round \(round): \(statuses.sorted())")
                #expect(!statuses.contains(500))
            }
        }
    }
}
