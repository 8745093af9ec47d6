import Hummingbird

/// `/v1/posts/{id}/comments` and `/v1/comments/{id}`: a post's comments, commenting and deleting a
/// comment.
struct CommentRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.get("posts/{id}/comments") { request, context in
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
        routes.post("posts/{id}/comments") { request, context in
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
        routes.delete("comments/{id}") { _, context in
            let identity = try context.requireIdentity()
            let commentID = try pathID(in: context)
            try await services.database.transaction { transaction in
                guard let comment = try await CommentStore.find(id: commentID, viewer: identity.memberID, in: transaction) else {
                    throw APIError.notFound("No comment \(commentID).")
                }
                try identity.requireOwnerOrAdmin(comment.author.id, what: "comment")
                try await CommentStore.delete(id: commentID, in: transaction)
            }
            return JSONBody.noContent()
        }
        return routes
    }
}
