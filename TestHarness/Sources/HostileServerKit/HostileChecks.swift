import Foundation
import NetworkService
import SessionEngine
import TokenStore

/// The invariants, checked against a mode's outcome.
struct HostileChecks {
    let mode: HostileMode
    let outcome: HostileOutcome
    /// The longest the operation may take.
    let bound: Duration
    /// The transport's body size limit.
    let maximumResponseBytes: Int
    /// The secrets the run held or sent, each with its encodings.
    private let secrets: [(secret: String, encodings: [(name: String, text: String)])]

    init(mode: HostileMode, outcome: HostileOutcome, bound: Duration, maximumResponseBytes: Int) {
        self.mode = mode
        self.outcome = outcome
        self.bound = bound
        self.maximumResponseBytes = maximumResponseBytes
        let collected = HostileSecrets.collect(from: outcome.exchanges.map(\.request) + outcome.trapRequests)
        secrets = Set(collected + (mode.script.dpop ? Self.dpopSecrets(outcome) : [])).sorted().map { secret in
            (secret, HostileSecrets.encodings(of: secret))
        }
    }

    /// Every invariant of the mode the outcome breaks, each with what broke it first (and how
    /// many other findings there are).
    func violations() -> [HostileViolation] {
        mode.invariants.compactMap { invariant in
            let found = messages(for: invariant)
            guard let first = found.first else { return nil }
            let more = found.count > 1 ? " (and \(found.count - 1) more)" : ""
            return HostileViolation(mode: mode.name, invariant: invariant, message: mask(first) + more)
        }
    }

    private func messages(for invariant: HostileInvariant) -> [String] {
        switch invariant {
        case .noSecretInOutput: secretsInOutputs()
        case .noServerControlCharacter: controlCharactersInOutputs()
        case .finishesWithinBound: timing()
        case .secretsStayWithTheProvider: secretsElsewhere()
        case .sessionKeptOrEndedRightly: session()
        case .boundedMemory: memory()
        case .hostileAnswerHandled: handling()
        case .provesPossessionRightly: provingFindings()
        }
    }

    // MARK: The invariants

    /// Every secret the run held or sent, in every encoding, against every output.
    private func secretsInOutputs() -> [String] {
        var found: [String] = []
        for output in outcome.outputs + outcome.shownToFrontEnd {
            for (secret, encodings) in secrets {
                if let encoding = HostileSecrets.leak(of: secret, encoded: encodings, in: output.text) {
                    let at = encodings.first { $0.name == encoding }?.text ?? String(secret.prefix(8))
                    found.append("\(output.source) holds \(Self.name(of: secret)) (\(encoding)): \(Self.excerpt(output.text, around: at))")
                }
            }
        }
        return Array(Set(found)).sorted()
    }

    private func controlCharactersInOutputs() -> [String] {
        var found: [String] = []
        for output in outcome.outputs + outcome.shownToFrontEnd {
            let bad = output.text.unicodeScalars.filter { HostileText.isForbidden($0, multiline: output.multiline) }
            if let first = bad.first {
                found.append("\(output.source) holds \(bad.count) control character\(bad.count == 1 ? "" : "s") "
                    + "(first U+\(String(first.value, radix: 16, uppercase: true))): \(Self.excerpt(HostileText.visible(output.text)))")
            }
        }
        return Array(Set(found)).sorted()
    }

    private func timing() -> [String] {
        var found: [String] = []
        if !outcome.finished {
            found.append("still running after \(outcome.elapsed) (bound \(bound)): a hang")
        } else if outcome.elapsed > bound {
            found.append("took \(Self.seconds(outcome.elapsed)) s (bound \(Self.seconds(bound)) s)")
        }
        if let limit = mode.signInClockBound, outcome.waitedOnSignInClock > limit {
            found.append("the device sign-in waited \(Int(outcome.waitedOnSignInClock)) s on its clock for a code that lives \(Int(limit)) s")
        }
        return found
    }

    private func secretsElsewhere() -> [String] {
        var found = outcome.refusals.map { "the SDK asked to send \($0.request): \($0.reason)" }
        for request in outcome.trapRequests {
            let wire = ([request.target] + request.headers.map { "\($0.key): \($0.value)" }
                + [String(decoding: request.body, as: UTF8.self)]).joined(separator: "\n")
            for (secret, encodings) in secrets {
                if let encoding = HostileSecrets.leak(of: secret, encoded: encodings, in: wire) {
                    found.append("the other origin received \(Self.name(of: secret)) (\(encoding)) in \(request.method) \(request.target)")
                }
            }
        }
        return found
    }

    private func session() -> [String] {
        var found: [String] = []
        let after = outcome.storedAfter
        let signedOut = outcome.events.compactMap { event -> SignOutReason? in
            if case let .signedOut(reason) = event { return reason }
            return nil
        }
        switch (mode.session, mode.operation) {
        case (.unchecked, _):
            break
        case let (.ended(reason), _):
            if after != nil { found.append("the store still holds a session; it should have ended (\(reason))") }
            if !signedOut.contains(reason) {
                found.append("no signedOut(\(reason)) event; events: \(outcome.events.map { "\($0)" }.joined(separator: ", "))")
            }
        case (.notReplaced, _):
            if let after, after != outcome.storedBefore { found.append("the stored credentials were replaced by the hostile answer's") }
        case (.kept, _):
            if after == nil {
                found.append("the session ended (\(signedOut.map { "\($0)" }.joined(separator: ", "))); it should be kept")
            } else if let after, let before = outcome.storedBefore,
                      after.accountID != before.accountID || after.dpopKey != before.dpopKey {
                found.append("the stored session changed account or key")
            }
        case (.byOperation, .revocation):
            if after != nil { found.append("the store still holds the session after sign-out") }
            if !signedOut.contains(.userSignedOut) { found.append("no signedOut(userSignedOut) event") }
        case (.byOperation, .refresh) where outcome.succeeded:
            if after == nil { found.append("the refresh succeeded but the store is empty") }
        case (.byOperation, .refresh):
            if after != outcome.storedBefore {
                found.append(after == nil ? "the session ended (\(signedOut.map { "\($0)" }.joined(separator: ", "))); "
                    + "a refresh that failed this way should keep it" : "the stored credentials changed")
            }
            if let reason = signedOut.first { found.append("a signedOut(\(reason)) event") }
        case (.byOperation, _) where mode.operation.signsIn:
            if !outcome.succeeded, after != nil { found.append("the failed sign-in left a session in the store") }
            if outcome.succeeded, after == nil { found.append("the sign-in succeeded but stored nothing") }
        case (.byOperation, _):
            break
        }
        if let after { found += Self.refusable(after) }
        return found
    }

    private func memory() -> [String] {
        var found: [String] = []
        if !outcome.hasTransportError(.responseTooLarge) {
            found.append("the body over the \(maximumResponseBytes)-byte limit was not refused by the limit (responseTooLarge)")
        }
        // What a client that stopped reading lets through: the limit, and what the sockets
        // hold, for each answer.
        let ceiling = (maximumResponseBytes + 8 * 1_048_576) * max(outcome.exchanges.count, 1)
        if outcome.bytesSent > ceiling {
            found.append("the provider wrote \(outcome.bytesSent) bytes: the client kept reading past the limit")
        }
        return found
    }

    private func handling() -> [String] {
        var found: [String] = []
        switch mode.result {
        case .refused where outcome.finished && outcome.succeeded:
            found.append("the hostile answer was accepted: the \(mode.operation) succeeded")
        case .succeeds where outcome.finished && !outcome.succeeded:
            found.append("a harmless answer was refused: \(outcome.error.map { String(describing: $0) } ?? "no error")")
        default:
            break
        }
        if let check = mode.check, let message = check(outcome) { found.append(message) }
        return found
    }

    // MARK: Secrets


    static func name(of secret: String) -> String {
        switch secret {
        case HostileSecrets.clientSecret: "the client secret"
        case HostileSecrets.accessToken: "the issued access token"
        case HostileSecrets.refreshToken: "the issued refresh token"
        case HostileSecrets.deviceCode: "the device code"
        case HostileSecrets.storedAccessToken: "the stored access token"
        case HostileSecrets.storedRefreshToken: "the stored refresh token"
        case _ where secret.hasPrefix("eyJ"): "a DPoP proof (or its part)"
        default: "a secret the run sent"
        }
    }

    /// `text` with every secret (in every encoding) masked, so a report never repeats one.
    private func mask(_ text: String) -> String {
        var text = text
        for (_, encodings) in secrets {
            for (_, encoded) in encodings {
                text = text.replacingOccurrences(of: encoded, with: "<SECRET>")
            }
        }
        return text
    }

    // MARK: Sessions

    /// What a stored session must never hold: an access token with a control character or
    /// white space (it goes into a header, and is printed for `curl -H`), an account id with a
    /// control character, an expiry no clock can print.
    static func refusable(_ credentials: Credentials) -> [String] {
        var found: [String] = []
        if credentials.accessToken.rawValue.unicodeScalars.contains(where: { HostileText.isForbidden($0, multiline: false) || $0 == " " }) {
            found.append("the stored access token holds a control character or a space")
        }
        if credentials.accountID.unicodeScalars.contains(where: { HostileText.isForbidden($0, multiline: false) }) {
            found.append("the stored account id holds a control character")
        }
        if let expiry = credentials.accessTokenExpiresAt {
            let seconds = expiry.timeIntervalSinceNow
            if !seconds.isFinite || abs(seconds) > 100 * 365 * 86_400 {
                found.append("the stored expiry is \(seconds) s away: more than a century")
            }
        }
        return found
    }

    // MARK: Text

    /// `text` on one line, at most about 240 characters of it: from the start, or around
    /// the first `needle` when it is further in.
    static func excerpt(_ text: String, around needle: String? = nil) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ⏎ ")
        guard line.count > 240 else { return line }
        guard let needle, let range = line.range(of: needle),
              line.distance(from: line.startIndex, to: range.lowerBound) > 200 else { return String(line.prefix(240)) + "…" }
        let start = line.index(range.lowerBound, offsetBy: -120)
        let end = line.index(start, offsetBy: 240, limitedBy: line.endIndex) ?? line.endIndex
        return "…" + line[start..<end] + (end < line.endIndex ? "…" : "")
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
