import Hummingbird

/// `/v1/posts...`: the feed, writing, reading, deleting and liking posts, and their comments.
struct PostRoutes {
    let services: AppServices

    func register(bearer router: RouteBuilder) {
        router.get("posts") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await PostStore.page(page, viewer: identity.memberID, in: transaction)
            })
        }
        router.post("posts") { request, context in
            let identity = try context.requireIdentity()
            let body = try await JSONBody.decode(NewPostBody.self, from: request)
            let content = try Validation.text(body.content, field: "content", length: Validation.contentLength)
            guard let isAnonymous = body.isAnonymous else { throw APIError.invalidRequest("isAnonymous: is required") }
            let now = services.now
            let post = try await services.database.transaction { transaction in
                try await PostStore.insert(authorID: identity.memberID, content: content, isAnonymous: isAnonymous, now: now, in: transaction)
            }
            return JSONBody.response(post, status: .created)
        }
        router.get("posts/{id}") { _, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            let post = try await services.database.transaction { transaction in
                try await PostStore.find(id: postID, viewer: identity.memberID, in: transaction)
            }
            guard let post else { throw APIError.notFound("No post \(postID).") }
            return JSONBody.response(post)
        }
        router.delete("posts/{id}") { _, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            try await services.database.transaction { transaction in
                guard let authorID = try await PostStore.authorID(of: postID, in: transaction) else {
                    throw APIError.notFound("No post \(postID).")
                }
                try identity.requireOwnerOrAdmin(authorID, what: "post")
                try await PostStore.delete(id: postID, in: transaction)
            }
            return JSONBody.noContent()
        }
        router.post("posts/{id}/like") { _, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            return JSONBody.response(try await services.database.transaction { transaction in
                guard try await PostStore.authorID(of: postID, in: transaction) != nil else {
                    throw APIError.notFound("No post \(postID).")
                }
                return try await PostStore.toggleLike(postID: postID, memberID: identity.memberID, in: transaction)
            })
        }
        router.get("posts/{id}/comments") { request, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                guard try await PostStore.authorID(of: postID, in: transaction) != nil else {
                    throw APIError.notFound("No post \(postID).")
                }
                return try await CommentStore.page(postID: postID, page, viewer: identity.memberID, in: transaction)
            })
        }
        router.post("posts/{id}/comments") { request, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            let body = try await JSONBody.decode(ContentBody.self, from: request)
            let content = try Validation.text(body.content, field: "content", length: Validation.contentLength)
            let now = services.now
            let comment = try await services.database.transaction { transaction in
                guard try await PostStore.authorID(of: postID, in: transaction) != nil else {
                    throw APIError.notFound("No post \(postID).")
                }
                return try await CommentStore.insert(postID: postID, authorID: identity.memberID, content: content, now: now, in: transaction)
            }
            return JSONBody.response(comment, status: .created)
        }
    }
}
