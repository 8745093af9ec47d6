import Hummingbird

/// `/v1/questions/{id}/answers` and `/v1/answers/...`: answering a question, a question's answers,
/// the caller's answers and deleting an answer.
struct AnswerRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.post("questions/{id}/answers") { request, context in
            let identity = try context.requireIdentity()
            let questionID = try pathID(in: context)
            let body = try await JSONBody.decode(ContentBody.self, from: request)
            let content = try Validation.text(body.content, field: "content", length: Validation.contentLength)
            let now = services.now
            // `nil`: no such question (nothing was written). The 404 is thrown after the transaction:
            // a throw inside this closure, ahead of the inlined `AnswerStore.insert`, crashes the
            // release build (Swift 6.3: signal 11 in LLVM's coroutine splitting).
            let answer = try await services.database.transaction { transaction -> AnswerDTO? in
                guard try await QuestionStore.exists(id: questionID, in: transaction) else { return nil }
                return try await AnswerStore.insert(questionID: questionID, authorID: identity.memberID, content: content, now: now, in: transaction)
            }
            guard let answer else { throw APIError.notFound("No question \(questionID).") }
            return JSONBody.response(answer, status: .created)
        }
        routes.get("questions/{id}/answers") { request, context in
            let identity = try context.requireIdentity()
            let questionID = try pathID(in: context)
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                guard try await QuestionStore.exists(id: questionID, in: transaction) else {
                    throw APIError.notFound("No question \(questionID).")
                }
                return try await AnswerStore.page(questionID: questionID, page, viewer: identity.memberID, in: transaction)
            })
        }
        routes.get("answers/mine") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await AnswerStore.pageOfMine(page, viewer: identity.memberID, in: transaction)
            })
        }
        routes.delete("answers/{id}") { _, context in
            let identity = try context.requireIdentity()
            let answerID = try pathID(in: context)
            try await services.database.transaction { transaction in
                guard let answer = try await AnswerStore.find(id: answerID, viewer: identity.memberID, in: transaction) else {
                    throw APIError.notFound("No answer \(answerID).")
                }
                try identity.requireOwnerOrAdmin(answer.author.id, what: "answer")
                try await AnswerStore.delete(id: answerID, in: transaction)
            }
            return JSONBody.noContent()
        }
        return routes
    }
}
