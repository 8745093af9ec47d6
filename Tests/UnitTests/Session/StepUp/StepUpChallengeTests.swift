import Foundation
import NetworkService
import Testing

/// Issue 37, item 3: reading RFC 9470's step-up challenge from `WWW-Authenticate`, and
/// refusing, by a typed error and never a crash, what a hostile server may write there.
@Suite("Step-up challenges (RFC 9470) read from WWW-Authenticate")
struct StepUpChallengeTests {
    /// RFC 9470 §3, Figure 2 (the line breaks folded).
    static let figure2 = #"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR""#

    /// A 401 with `challenge`, as `Server.send` makes it.
    static func unauthorized(_ challenge: String?, code: ServerErrorCode? = nil, status: Int = 401) -> NetworkError {
        NetworkError(kind: .httpStatus, method: .get, path: "/v1/payments", statusCode: status,
                     serverErrorCode: code, authenticateChallenge: challenge)
    }

    @Test("RFC 9470's example reads as its scheme, acr_values and description")
    func rfcExample() throws {
        let challenge = try #require(try StepUpChallenge.parse(Self.figure2))
        #expect(challenge.scheme == .bearer)
        #expect(challenge.acrValues == ["myACR"])
        #expect(challenge.maxAge == nil)
        #expect(challenge.errorDescription == "A different authentication level is required")
    }

    @Test("max_age alone, acr_values as a space-separated list (duplicates and extra spaces dropped), and the DPoP scheme")
    func listsAndSchemes() throws {
        let maxAge = try #require(try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", max_age=5"#))
        #expect(maxAge.maxAge == 5 && maxAge.acrValues.isEmpty)
        let list = try #require(try StepUpChallenge.parse(
            #"DPoP algs="ES256", error="insufficient_user_authentication", acr_values="  urn:example:mfa  phr urn:example:mfa", max_age="0""#))
        #expect(list.scheme == .dpop)
        #expect(list.acrValues == ["urn:example:mfa", "phr"])
        #expect(list.maxAge == 0)
    }

    @Test("an acr_values URI of token-like length survives whole, though the printed challenge redacts it")
    func longURIKept() throws {
        let uri = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"
        let error = Self.unauthorized(#"Bearer error="insufficient_user_authentication", acr_values="\#(uri)""#)
        #expect(try error.stepUpChallenge()?.acrValues == [uri])
        #expect(error.authenticateChallenge?.contains(uri) == false)
    }

    @Test("other challenges and errors are no step-up", arguments: [
        #"Bearer error="invalid_token""#,
        #"Bearer error="insufficient_scope", acr_values="x""#,
        #"Basic error="insufficient_user_authentication""#,
        #"Bearer error_description="insufficient_user_authentication""#,
        #"Bearerx error="insufficient_user_authentication""#,
        "",
    ])
    func notStepUp(header: String) throws {
        #expect(try StepUpChallenge.parse(header) == nil)
        let error = Self.unauthorized(header)
        #expect(!error.isStepUpChallenge)
        #expect(try error.stepUpChallenge() == nil)
    }

    @Test("only a 401 asks for a step-up; the body's error code alone counts too")
    func statusAndCode() throws {
        let forbidden = Self.unauthorized(Self.figure2, status: 403)
        #expect(!forbidden.isStepUpChallenge)
        let codeOnly = Self.unauthorized(nil, code: .insufficientUserAuthentication)
        #expect(codeOnly.isStepUpChallenge)
        #expect(try codeOnly.stepUpChallenge() == StepUpChallenge(scheme: nil))
    }

    @Test("max_age that is not a whole number of seconds within 0 … ten years is refused by kind, quoting at most 32 characters",
          arguments: ["-1", "1.5", "1e3", "+5", "", " ", "0x10", "315360001", "99999999999999999999999999999999999999999", "٣"])
    func absurdMaxAge(value: String) {
        let header = #"Bearer error="insufficient_user_authentication", max_age="\#(value)""#
        #expect(throws: StepUpChallengeError.self) { try StepUpChallenge.parse(header) }
        let error = Self.unauthorized(header)
        #expect(error.isStepUpChallenge)
        do {
            _ = try error.stepUpChallenge()
            Issue.record("max_age \(value) was accepted")
        } catch {
            #expect(error.kind == .invalidMaxAge)
            #expect(error.parameter == "max_age")
            #expect(error.description.count < 160)
        }
    }

    @Test("control characters in acr_values are refused and never printed raw",
          arguments: ["mfa\u{1B}]52;c;aGk=\u{07}", "a\tb", "mfa\u{202E}", "a\u{0}b", "x\u{85}"])
    func controlCharacters(value: String) {
        let header = "Bearer error=\"insufficient_user_authentication\", acr_values=\"\(value)\""
        do {
            _ = try StepUpChallenge.parse(header)
            Issue.record("acr_values with a control character was accepted")
        } catch {
            #expect(error.kind == .invalidACRValues)
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        }
    }

    @Test("too many or too long acr_values are refused; the largest allowed are read")
    func hugeACRValues() throws {
        let many = (0...StepUpChallenge.maximumACRValueCount).map { "acr\($0)" }.joined(separator: " ")
        #expect(throws: StepUpChallengeError.self) {
            try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", acr_values="\#(many)""#)
        }
        let long = String(repeating: "a", count: StepUpChallenge.maximumACRValueLength + 1)
        #expect(throws: StepUpChallengeError.self) {
            try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", acr_values="\#(long)""#)
        }
        let most = (1...StepUpChallenge.maximumACRValueCount).map { "acr\($0)" }.joined(separator: " ")
        #expect(try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", acr_values="\#(most)""#)?
                    .acrValues.count == StepUpChallenge.maximumACRValueCount)
        // A megabyte of header is read, and refused, without trouble.
        let huge = String(repeating: "x", count: 1 << 20)
        #expect(throws: StepUpChallengeError.self) {
            try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", acr_values="\#(huge)""#)
        }
    }

    @Test("a parameter repeated with another value is refused; repeated alike, it is read")
    func repeatedParameters() throws {
        do {
            _ = try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", max_age=5, max_age=50000"#)
            Issue.record("a repeated max_age was accepted")
        } catch {
            #expect(error.kind == .repeatedParameter && error.parameter == "max_age")
        }
        #expect(throws: StepUpChallengeError.self) {
            try StepUpChallenge.parse(#"Bearer acr_values="low", error="insufficient_user_authentication", acr_values="high""#)
        }
        #expect(try StepUpChallenge.parse(#"Bearer error="insufficient_user_authentication", max_age=5, max_age="5""#)?.maxAge == 5)
    }

    @Test("several challenges: the step-up is found in any of them; Bearer and DPoP asking differently is a conflict")
    func severalChallenges() throws {
        let after = #"Basic realm="x", Bearer realm="api", DPoP error="insufficient_user_authentication", acr_values="mfa""#
        #expect(try StepUpChallenge.parse(after) == StepUpChallenge(scheme: .dpop, acrValues: ["mfa"]))
        let both = #"Bearer error="insufficient_user_authentication", max_age=60, DPoP error="insufficient_user_authentication", max_age=60, algs="ES256""#
        #expect(try StepUpChallenge.parse(both)?.maxAge == 60)
        let conflicting = #"Bearer error="insufficient_user_authentication", acr_values="a", DPoP error="insufficient_user_authentication", acr_values="b""#
        do {
            _ = try StepUpChallenge.parse(conflicting)
            Issue.record("conflicting challenges were accepted")
        } catch {
            #expect(error.kind == .conflictingChallenges && error.parameter == nil)
        }
    }

    @Test("a step-up is never an authentication failure, under any policy, so it never triggers a refresh")
    func neverAnAuthenticationFailure() {
        let error = Self.unauthorized(Self.figure2)
        for policy in [AuthenticationFailurePolicy.default, .strictBearerChallenge,
                       AuthenticationFailurePolicy(statusCodes: [401, 403], forbiddenMeansExpiredToken: true)] {
            #expect(!error.isAuthenticationFailure(under: policy))
        }
        #expect(Self.unauthorized(#"Bearer error="invalid_token""#).isAuthenticationFailure)
    }

    @Test("the access token echoed in the challenge is gone before anything reads it", .timeLimit(.minutes(1)))
    func tokenEchoed() async throws {
        let token = "secret-access-token-0123456789abcdef"
        let transport = TestTransport()
        transport.serve { _ in
            TestTransport.Reply(status: 401, headers: ["WWW-Authenticate":
                #"Bearer error="insufficient_user_authentication", acr_values="\#(token) mfa", error_description="\#(token)""#])
        }
        let server = try Server(baseURL: "https://api.example.com", transport: transport)
        do {
            _ = try await server.send(StepUpProbeEndpoint(), accessToken: AccessToken(token))
            Issue.record("a 401 was not thrown")
        } catch {
            let challenge = try #require(try error.stepUpChallenge())
            #expect(!challenge.acrValues.contains(token) && challenge.acrValues.contains("mfa"))
            #expect(!"\(challenge) \(challenge.errorDescription ?? "") \(error)".contains(token))
        }
    }
}

/// A bearer GET of `/v1/payments`.
struct StepUpProbeEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/v1/payments" }
}
