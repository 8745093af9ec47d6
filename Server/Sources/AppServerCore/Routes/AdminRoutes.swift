import Hummingbird

/// `/v1/admin/...`: admins only; reading the reports.
struct AdminRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``, and each checks that the caller is an admin.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.get("admin/reports") { request, context in
            let identity = try context.requireIdentity()
            guard identity.isAdmin else { throw APIError.forbidden("Only admins may read reports.") }
            let page = try PageRequest(from: request)
            return JSONBody.response(try await services.database.transaction { transaction in
                try await ReportStore.page(page, viewer: identity.memberID, in: transaction)
            })
        }
        return routes
    }
}
