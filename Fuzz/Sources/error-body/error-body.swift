import Foundation
import FuzzSupport
import NetworkService

/// The error bodies a failed response carries: the app's (`{"error":{"code","message"}}`),
/// RFC 6749 §5.2's (`{"error","error_description"}`), Django REST framework's, and the
/// standard format that tries them in turn (with a `WWW-Authenticate` challenge the first byte
/// may add). Invariants: the standard format answers what the first format that reads the
/// body answers; a format's answer is the JSON's own fields (the body decoded again as any
/// JSON); a format reads one body the same way twice.
@main enum ErrorBodyFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        guard let (selector, rest) = input.selectorAndRest else { return }
        let body = Data(rest)
        let headers = selector & 1 == 1 ? ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#] : [:]
        let response = HTTPResponse(statusCode: 400 + Int(selector % 100), headerFields: headers)
        let app = ServerErrorFormat.appAPI.decode(response, body)
        let challenge = ServerErrorFormat.bearerChallenge.decode(response, body)
        let oauth = ServerErrorFormat.oauth2.decode(response, body)
        let django = ServerErrorFormat.djangoRESTFramework.decode(response, body)
        let standard = ServerErrorFormat.standard.decode(response, body)
        require(standard == (app ?? challenge ?? oauth ?? django), "standard read \(String(describing: standard))")
        require(ServerErrorFormat.oauth2.decode(response, body) == oauth, "two reads of one body differ")
        // The body's fields, read by the same decoder (JSONSerialization and JSONDecoder differ
        // where JSON leaves it open: a duplicate key, a raw control character in a string).
        guard case let .object(object)? = try? JSONDecoder().decode(AnyJSON.self, from: body) else { return }
        if let oauth {
            require(object["error"]?.string == oauth.code.rawValue, "oauth2 read a code that is not the body's `error`")
            require(oauth.message == nil || object["error_description"]?.string == oauth.message,
                    "oauth2 read a message that is not the body's `error_description`")
        }
        if let app {
            let error = object["error"]?.object
            require(error?["code"]?.string == app.code.rawValue, "appAPI read a code that is not the body's `error.code`")
        }
        if let django {
            require(object["code"]?.string == django.code.rawValue && !django.code.rawValue.isEmpty,
                    "djangoRESTFramework read a code that is not the body's non-empty `code`")
        }
    }
}

/// Any JSON value, to read a body's fields without the formats' types.
enum AnyJSON: Decodable {
    case string(String), number(Double), bool(Bool), null, array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AnyJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AnyJSON].self)) }
    }

    var string: String? { if case let .string(text) = self { text } else { nil } }
    var object: [String: AnyJSON]? { if case let .object(fields) = self { fields } else { nil } }
}
