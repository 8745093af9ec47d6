import Hummingbird

/// `/v1/members/me`: read, rename and delete the caller's account.
struct MemberRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.get("members/me") { _, context in
            let identity = try context.requireIdentity()
            let member = try await services.database.transaction { transaction in
                try await MemberStore.find(id: identity.memberID, in: transaction)
            }
            guard let member else { throw APIError.memberGone }
            return JSONBody.response(member.dto)
        }
        routes.patch("members/me") { request, context in
            let identity = try context.requireIdentity()
            let body = try await JSONBody.decode(NicknameBody.self, from: request)
            let nickname = try Validation.nickname(body.nickname)
            let member = try await services.database.transaction { transaction in
                try await MemberStore.updateNickname(id: identity.memberID, nickname: nickname, in: transaction)
                return try await MemberStore.find(id: identity.memberID, in: transaction)
            }
            guard let member else { throw APIError.memberGone }
            return JSONBody.response(member.dto)
        }
        routes.delete("members/me") { _, context in
            let identity = try context.requireIdentity()
            try await services.database.transaction { transaction in
                try await MemberStore.delete(id: identity.memberID, in: transaction)
            }
            return JSONBody.noContent()
        }
        return routes
    }
}
