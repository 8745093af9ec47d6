import Hummingbird

/// `/v1/reports`: any member reports a post, comment or answer. Reading reports is
/// ``AdminRoutes``.
struct ReportRoutes {
    let services: AppServices

    /// The routes, relative to `/v1`; all behind ``AuthMiddleware``.
    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: services.authMiddleware)
        routes.post("reports") { request, context in
            let identity = try context.requireIdentity()
            let body = try await JSONBody.decode(NewReportBody.self, from: request)
            let typeName = try Validation.required(body.targetType, field: "targetType")
            guard let targetType = ReportTargetType(rawValue: typeName) else {
                throw APIError.invalidRequest("targetType: must be one of post, comment, answer")
            }
            guard let targetID = body.targetId else { throw APIError.invalidRequest("targetId: is required") }
            let reason = try Validation.text(body.reason, field: "reason", length: Validation.reasonLength)
            let now = services.now
            let report = try await services.database.transaction { transaction in
                guard try await ReportStore.targetExists(targetType, id: targetID, in: transaction) else {
                    throw APIError.notFound("No \(targetType.rawValue) \(targetID).")
                }
                return try await ReportStore.insert(
                    reporterID: identity.memberID, targetType: targetType, targetID: targetID, reason: reason, now: now, in: transaction
                )
            }
            return JSONBody.response(report, status: .created)
        }
        return routes
    }
}
