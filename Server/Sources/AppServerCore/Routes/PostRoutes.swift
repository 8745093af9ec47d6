import Hummingbird

/// `/v1/posts...`: the feed, writing, reading, deleting and liking posts. A post's comments are
/// ``CommentRoutes``.
struct PostRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.get("posts") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await PostStore.page(page, viewer: identity.memberID, in: transaction)
            })
        }
        routes.post("posts") { request, context in
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
        routes.get("posts/{id}") { _, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            let post = try await services.database.transaction { transaction in
                try await PostStore.find(id: postID, viewer: identity.memberID, in: transaction)
            }
            guard let post else { throw APIError.notFound("No post \(postID).") }
            return JSONBody.response(post)
        }
        routes.delete("posts/{id}") { _, context in
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
        routes.post("posts/{id}/like") { _, context in
            let identity = try context.requireIdentity()
            let postID = try pathID(in: context)
            return JSONBody.response(try await services.database.transaction { transaction in
                guard try await PostStore.authorID(of: postID, in: transaction) != nil else {
                    throw APIError.notFound("No post \(postID).")
                }
                return try await PostStore.toggleLike(postID: postID, memberID: identity.memberID, in: transaction)
            })
        }
        return routes
    }
}
