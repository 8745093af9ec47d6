import Hummingbird

/// `/v1/questions` and `/v1/questions/today`: the list and today's question. A question's answers
/// are ``AnswerRoutes``.
struct QuestionRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.get("questions/today") { _, context in
            let identity = try context.requireIdentity()
            let now = services.clock.now()
            let question = try await services.database.transaction { transaction in
                try await QuestionStore.today(now: now, viewer: identity.memberID, in: transaction)
            }
            guard let question else { throw APIError.notFound("There are no questions.") }
            return JSONBody.response(question)
        }
        routes.get("questions") { request, context in
            let identity = try context.requireIdentity()
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await QuestionStore.page(page, viewer: identity.memberID, in: transaction)
            })
        }
        return routes
    }
}
