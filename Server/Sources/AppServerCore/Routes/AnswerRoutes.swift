import Hummingbird

/// `/v1/answers...`: the caller's answers and deleting an answer.
struct AnswerRoutes {
    let services: AppServices

    func register(bearer router: RouteBuilder) {
        router.get("answers/mine") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await AnswerStore.pageOfMine(page, viewer: identity.memberID, in: transaction)
            })
        }
        router.delete("answers/{id}") { _, context in
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
    }
}
