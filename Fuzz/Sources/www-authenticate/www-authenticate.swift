import Foundation
import FuzzSupport
@testable import NetworkService

/// The `WWW-Authenticate` challenge parser (`BearerChallenge`, RFC 6750 §3 / RFC 9110 §11.2;
/// `DPoPChallenge`, RFC 9449 §7.1, the same parser with another scheme) and the error format
/// built on it (`ServerErrorFormat.bearerChallenge`).
/// Invariants: parameters exist exactly when a challenge of the scheme is found; their names are
/// lowercase and non-empty; the error format claims the response exactly when a non-empty
/// `error` parameter is there, with that code and `error_description`; one answer per header.
/// And a round trip for both schemes: the input read as parameters (0x00 between pairs, 0x01
/// between a name, kept to RFC 9110's token characters, and a value of any text) and written as
/// a challenge with quoted-string values (`\` before `"` and `\`) parses back to those parameters.
@main enum WWWAuthenticateFuzzer {
    static func main() { runFuzzer(fuzz) }

    static func fuzz(_ input: FuzzInput) {
        checkRoundTrip(input)
        let header = input.text
        let parameters = BearerChallenge.parameters(of: header)
        require((parameters != nil) == BearerChallenge.hasBearerChallenge(header), "parameters and hasBearerChallenge disagree")
        for name in parameters?.keys ?? [:].keys {
            require(!name.isEmpty && name == name.lowercased(), "parameter name `\(name)` not lowercase and non-empty")
        }
        require(BearerChallenge.parameters(of: header) == parameters, "two reads of one header differ")
        let dpop = DPoPChallenge.parameters(of: header)
        require((dpop != nil) == DPoPChallenge.hasDPoPChallenge(header), "DPoP parameters and hasDPoPChallenge disagree")
        for name in dpop?.keys ?? [:].keys {
            require(!name.isEmpty && name == name.lowercased(), "DPoP parameter name `\(name)` not lowercase and non-empty")
        }
        let response = HTTPResponse(statusCode: 401, headerFields: ["WWW-Authenticate": header])
        let details = ServerErrorFormat.bearerChallenge.decode(response, Data())
        if let error = parameters?["error"], !error.isEmpty {
            require(details == ServerErrorDetails(code: ServerErrorCode(rawValue: error), message: parameters?["error_description"]),
                    "the error format read \(String(describing: details)), the parser \(error)")
        } else {
            require(details == nil, "the error format claimed a challenge without an error")
        }
        checkStepUp(header)
    }

    /// The step-up reader (`StepUpChallenge`, RFC 9470) on the same header: a challenge it
    /// returns is within its bounds and prints no control character; an error it throws is
    /// short and prints none; a challenge saying `insufficient_user_authentication` in neither
    /// scheme is none.
    static func checkStepUp(_ header: String) {
        func printable(_ text: String) -> Bool { !text.unicodeScalars.contains(where: Redaction.isUnprintable) }
        do {
            guard let challenge = try StepUpChallenge.parse(header) else { return }
            let asks = [AuthenticateChallenge.parameterList(of: header, scheme: "bearer"),
                        AuthenticateChallenge.parameterList(of: header, scheme: "dpop")]
                .contains { $0?.contains { $0.name == "error" && $0.value == "insufficient_user_authentication" } == true }
            require(asks, "a step-up read from a header without insufficient_user_authentication")
            require((0...StepUpChallenge.maximumMaxAge).contains(challenge.maxAge ?? 0), "max_age out of bounds")
            require(challenge.acrValues.count <= StepUpChallenge.maximumACRValueCount, "too many acr_values")
            require(challenge.acrValues.allSatisfy { !$0.isEmpty && $0.unicodeScalars.count <= StepUpChallenge.maximumACRValueLength
                && printable($0) && !$0.contains(" ") }, "an acr value empty, too long, with a space or a control character")
            require(printable(challenge.description) && printable(challenge.errorDescription ?? ""), "a control character printed")
        } catch {
            require(printable(error.description) && error.description.count < 4096, "a step-up error long or with a control character")
        }
    }

    static let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~".unicodeScalars)

    static func checkRoundTrip(_ input: FuzzInput) {
        var expected: [String: String] = [:]
        var written: [String] = []
        for pair in input.bytes.split(separator: 0) {
            let parts = pair.split(separator: 1, maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(String.UnicodeScalarView(String(decoding: parts[0], as: UTF8.self).lowercased()
                .unicodeScalars.filter(tokenCharacters.contains)))
            guard !name.isEmpty else { continue }
            let value = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
            var quoted = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                if scalar == "\\" || scalar == "\"" { quoted.append("\\") }
                quoted.append(scalar)
            }
            written.append(name + "=\"" + String(quoted) + "\"")
            expected[name] = value
        }
        let parsers: [(String, (String) -> [String: String]?)] = [("Bearer", BearerChallenge.parameters(of:)), ("DPoP", DPoPChallenge.parameters(of:))]
        for (scheme, parse) in parsers {
            let header = scheme + " " + written.joined(separator: ", ")
            let parameters = parse(header)
            require(parameters.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, Array($0.value.unicodeScalars)) }) }
                    == Dictionary(uniqueKeysWithValues: expected.map { ($0.key, Array($0.value.unicodeScalars)) }),
                    "\(header.debugDescription) parses back to \(String(describing: parameters)), not \(expected)")
        }
    }
}
