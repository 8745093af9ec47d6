import Hummingbird

/// `/v1/comments/{id}`: deleting a comment.
struct CommentRoutes {
    let services: AppServices

    func register(bearer router: RouteBuilder) {
        router.delete("comments/{id}") { _, context in
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
    }
}
