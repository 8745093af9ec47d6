import Foundation
import FuzzSupport
import NetworkService

/// The error bodies a failed response carries: the app's (`{"error":{"code","message"}}`),
/// RFC 6749 §5.2's (`{"error","error_description"}`), Django REST framework's, and the
/// standard format that tries them in turn (with a `WWW-Authenticate` challenge the first byte
/// may add). Invariants: the standard format answers what the first format that reads the
/// body answers; a format's answer is the JSON's own fields (decoded again with
/// `JSONSerialization`); a format reads one body the same way twice.
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
        // JSONDecoder accepts a little JSONSerialization refuses (a raw control character in a
        // string): the fields are compared where both read the body.
        guard let object = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any] else {
            return
        }
        if let oauth {
            require(object["error"] as? String == oauth.code.rawValue, "oauth2 read a code that is not the body's `error`")
            require(oauth.message == nil || object["error_description"] as? String == oauth.message,
                    "oauth2 read a message that is not the body's `error_description`")
        }
        if let app {
            let error = object["error"] as? [String: Any]
            require(error?["code"] as? String == app.code.rawValue, "appAPI read a code that is not the body's `error.code`")
        }
        if let django {
            require(object["code"] as? String == django.code.rawValue && !django.code.rawValue.isEmpty,
                    "djangoRESTFramework read a code that is not the body's non-empty `code`")
        }
    }
}
