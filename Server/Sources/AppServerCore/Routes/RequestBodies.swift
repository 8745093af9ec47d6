/// Request bodies. Every field is optional so that a missing field is reported by the
/// validation with its name (400 `invalid_request`), not as a generic decoding failure.

struct SignUpBody: Decodable {
    var email: String?
    var password: String?
    var nickname: String?
}

struct SignInBody: Decodable {
    var email: String?
    var password: String?
}

struct RefreshTokenBody: Decodable {
    var refreshToken: String?
}

struct NicknameBody: Decodable {
    var nickname: String?
}

struct ContentBody: Decodable {
    var content: String?
}

struct NewPostBody: Decodable {
    var content: String?
    var isAnonymous: Bool?
}

struct NewReportBody: Decodable {
    var targetType: String?
    var targetId: Int?
    var reason: String?
}

struct RefreshFaultBody: Decodable {
    var mode: String?
    var count: Int?
    var seconds: Double?
}
