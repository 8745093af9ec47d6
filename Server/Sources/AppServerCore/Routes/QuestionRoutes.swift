import Hummingbird

/// `/v1/questions...`: today's question, the list, and a question's answers.
struct QuestionRoutes {
    let services: AppServices

    func register(bearer router: RouteBuilder) {
        router.get("questions/today") { _, context in
            let identity = try context.requireIdentity()
            let now = services.clock.now()
            let question = try await services.database.transaction { transaction in
                try await QuestionStore.today(now: now, viewer: identity.memberID, in: transaction)
            }
            guard let question else { throw APIError.notFound("There are no questions.") }
            return JSONBody.response(question)
        }
        router.get("questions") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await QuestionStore.page(page, viewer: identity.memberID, in: transaction)
            })
        }
        router.post("questions/{id}/answers") { request, context in
            let identity = try context.requireIdentity()
            let questionID = try pathID(in: context)
            let body = try await JSONBody.decode(ContentBody.self, from: request)
            let content = try Validation.text(body.content, field: "content", length: Validation.contentLength)
            let now = services.now
            let answer = try await services.database.transaction { transaction in
                guard try await QuestionStore.exists(id: questionID, in: transaction) else {
                    throw APIError.notFound("No question \(questionID).")
                }
                return try await AnswerStore.insert(questionID: questionID, authorID: identity.memberID, content: content, now: now, in: transaction)
            }
            return JSONBody.response(answer, status: .created)
        }
        router.get("questions/{id}/answers") { request, context in
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
    }
}
