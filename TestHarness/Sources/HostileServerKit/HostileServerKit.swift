public import Foundation
public import AppSDKTesting
import NetworkService
import Testing
import TokenStore

/// The hostile-server kit: every ``HostileMode`` (one per server-controlled input) played by a
/// ``HostileProvider`` on loopback against the SDK over one transport, each checked against
/// its ``HostileInvariant``s. The SDK's `URLSessionTransport` and the AsyncHTTPClient
/// transport (`Integrations/AsyncHTTPClientTransport`) each run it, and `scripts/test` prints
/// the summary line each prints.
///
/// Each broken invariant is recorded as a test issue naming the mode, so the call must come
/// from a Swift Testing test:
///
/// ```swift
/// @Suite("A hostile OAuth server against the SDK over URLSession")
/// struct URLSessionHostileServerTests {
///     let kit = HostileServerKit(transport: "URLSession") { timeout, maximumResponseBytes in
///         URLSessionTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
///     }
///
///     @Test("every hostile mode keeps every invariant")
///     func everyMode() async { await kit.runEveryMode() }
/// }
/// ```
public struct HostileServerKit: Sendable {
    /// The transport's timeout in every mode, in seconds.
    public static let transportTimeout: TimeInterval = 5
    /// The longest a mode whose server answers may take (longer under a sanitizer: ``slowdown``).
    public static let promptBound: Duration = .seconds(4) * slowdown
    /// The longest a mode whose server is slow or silent may take: the timeout and a margin
    /// (a timeout more for each further request the operation makes to it in turn).
    public static let slowBound: Duration = .seconds(transportTimeout) + .seconds(5) * slowdown
    /// How much longer than usual an operation may take: 5 under ThreadSanitizer or
    /// AddressSanitizer (`scripts/sanitize` sets their options; they run code 5 to 15 times
    /// slower), else 1. The transport's timeout stays as it is.
    public static let slowdown: Double = {
        let environment = ProcessInfo.processInfo.environment
        return environment["TSAN_OPTIONS"] != nil || environment["ASAN_OPTIONS"] != nil ? 5 : 1
    }()
    /// How long past its bound the kit waits for an operation before it gives up on it (a hang).
    static let grace: Duration = .seconds(5)

    /// The transport's name, for the summary line.
    public let transport: String
    let makeTransport: TransportConformance.MakeTransport
    let maximumResponseBytes = TransportLimits.defaultMaximumResponseBytes

    /// A kit for the transports `makeTransport` makes (called once per mode, with the kit's
    /// timeout and the default size limit); `name` names them in the summary line.
    public init(transport name: String, _ makeTransport: @escaping TransportConformance.MakeTransport) {
        self.transport = name
        self.makeTransport = makeTransport
    }

    /// Runs `modes` (every mode by default), `concurrency` at a time; records an issue per
    /// broken invariant, prints the summary line, and returns the report.
    @discardableResult
    public func runEveryMode(_ modes: [HostileMode] = HostileMode.all, concurrency: Int = 4) async -> HostileReport {
        let results = await withTaskGroup(of: (Int, [HostileViolation]).self) { group in
            var results = [[HostileViolation]](repeating: [], count: modes.count)
            var next = 0
            func startNext() {
                guard next < modes.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await run(modes[index])) }
            }
            for _ in 0..<max(concurrency, 1) { startNext() }
            while let (index, violations) = await group.next() {
                results[index] = violations
                startNext()
            }
            return results
        }
        let violations = results.flatMap { $0 }
        let report = HostileReport(transport: transport, modes: modes.count,
                                   checks: modes.reduce(0) { $0 + $1.invariants.count }, violations: violations)
        // Written before the issues, in one unbuffered write, so that the test runner's own
        // output cannot split the line.
        let counts = HostileMode.Category.allCases.map { category in "\(category) \(modes.filter { $0.category == category }.count)" }
        let lines = "\n" + report.summaryLine + "\nhostile-server kit modes by category: " + counts.joined(separator: ", ") + "\n"
        FileHandle.standardOutput.write(Data(lines.utf8))
        for violation in violations {
            Issue.record(Comment(rawValue: "[\(transport)] \(violation)"))
        }
        return report
    }

    /// Runs one mode: the broken invariants.
    public func run(_ mode: HostileMode) async -> [HostileViolation] {
        let run: HostileRun
        do {
            run = try HostileRun(mode: mode, transport: makeTransport(Self.transportTimeout, maximumResponseBytes))
        } catch {
            return [HostileViolation(mode: mode.name, invariant: .finishesWithinBound, message: "the provider did not start: \(error)")]
        }
        defer { run.provider.stop() }
        let bound = bound(of: mode)
        let outcome = await run.outcome(givingUpAfter: bound + Self.grace)
        let checking = ContinuousClock.now
        let violations = HostileChecks(mode: mode, outcome: outcome, bound: bound, maximumResponseBytes: maximumResponseBytes).violations()
        if ProcessInfo.processInfo.environment["HOSTILE_KIT_TRACE"] != nil {
            print("hostile-kit trace: \(HostileChecks.seconds(outcome.elapsed)) s, checks \(ContinuousClock.now - checking), "
                + "\(outcome.outputs.count) outputs: \(mode.name)")
        }
        return violations
    }

    /// The longest `mode`'s operation may take.
    func bound(of mode: HostileMode) -> Duration {
        switch mode.timing {
        case .prompt: Self.promptBound
        case let .slow(requests): Self.slowBound + .seconds(Self.transportTimeout * Double(max(requests, 1) - 1))
        }
    }
}
