public import Logging
public import CoreMetrics
public import SessionEngine
public import Tracing
import Foundation
import Synchronization

/// Turns the session engine's ``/SessionEngine/SessionRecord``s into log lines, metrics and a
/// span per refresh. Install its ``observer`` in the service's configuration:
///
/// ```swift
/// let telemetry = SessionTelemetry(logger: Logger(label: "session"))
/// var configuration = SessionService.Configuration.oauth2(oauth)
/// configuration.observer = telemetry.observer
/// ```
///
/// - Log lines (metadata `refresh_id` and the record's fields; never a token): a rotation, the
///   store already holding newer tokens and the other steps at `debug`; a retry scheduled and a
///   refresh-limit count at `info`; a failure that keeps the session and tokens kept in memory at
///   `warning`; a session ended at `notice`; an exceeded refresh limit and a store failure at `error`.
/// - Metrics: counters `session_refreshes_total` (dimension `outcome`: `rotated`,
///   `from_store`, `rejected`, `failed`, `not_sent`), `session_ended_total` (`reason`),
///   `session_refresh_limit_exceeded_total` and `session_refresh_retries_total`; timers
///   `session_refresh_duration_seconds` and `session_section_wait_seconds`.
/// - A span `session.refresh` per refresh, from its start to its end, with attributes
///   `session.refresh.id`, `session.refresh.cause` and `session.refresh.outcome`, an event per
///   retry, and an error status when it failed.
public final class SessionTelemetry: Sendable {
    private let logger: Logger
    private let refreshes: [String: Counter]
    private let metricsFactory: any MetricsFactory
    private let refreshLimitsExceeded: Counter
    private let retries: Counter
    private let refreshDuration: CoreMetrics.Timer
    private let sectionWait: CoreMetrics.Timer
    private let tracer: (any Tracer)?
    private let inFlight = Mutex<[Int: RefreshTrace]>([:])

    /// What is known of a refresh in flight.
    private struct RefreshTrace: Sendable {
        var span: (any Span)?
        var outcome = "not_sent"
    }

    /// Creates the telemetry.
    /// - Parameters:
    ///   - logger: Where the log lines go.
    ///   - metricsFactory: The metrics backend; `nil` (the default) uses the bootstrapped one (`MetricsSystem.factory`).
    ///   - tracer: The tracer for the spans; `nil` (the default) uses the bootstrapped one (`InstrumentationSystem.tracer`).
    public init(logger: Logger, metricsFactory: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil) {
        let factory = metricsFactory ?? MetricsSystem.factory
        self.logger = logger
        self.metricsFactory = factory
        refreshes = Dictionary(uniqueKeysWithValues: ["rotated", "from_store", "rejected", "failed", "not_sent"].map {
            ($0, Counter(label: "session_refreshes_total", dimensions: [("outcome", $0)], factory: factory))
        })
        refreshLimitsExceeded = Counter(label: "session_refresh_limit_exceeded_total", factory: factory)
        retries = Counter(label: "session_refresh_retries_total", factory: factory)
        refreshDuration = CoreMetrics.Timer(label: "session_refresh_duration_seconds", factory: factory)
        sectionWait = CoreMetrics.Timer(label: "session_section_wait_seconds", factory: factory)
        self.tracer = tracer
    }

    /// The observer to install in `SessionService.Configuration.observer`.
    public var observer: SessionObserver {
        SessionObserver { [self] record in receive(record) }
    }

    /// Logs, counts and traces one record.
    public func receive(_ record: SessionRecord) {
        let id = record.refreshID
        var metadata: Logger.Metadata = ["refresh_id": "\(id)"]
        switch record.event {
        case let .refreshStarted(cause):
            let span = (tracer ?? InstrumentationSystem.tracer).startSpan("session.refresh", ofKind: .client)
            span.attributes["session.refresh.id"] = id
            span.attributes["session.refresh.cause"] = "\(cause)"
            inFlight.withLock { $0[id] = RefreshTrace(span: span) }
            metadata["cause"] = "\(cause)"
            logger.debug("refresh started", metadata: metadata)
        case let .joinedRefresh(cause):
            metadata["cause"] = "\(cause)"
            logger.debug("a caller joined the refresh in flight", metadata: metadata)
        case let .exclusiveSectionEntered(waited):
            sectionWait.recordNanoseconds(Self.nanoseconds(waited))
            metadata["waited_s"] = "\(Self.seconds(waited))"
            logger.debug("exclusive section entered", metadata: metadata)
        case .storeHeldNewerTokens:
            note(id, outcome: "from_store")
            logger.debug("the store already held newer tokens: no server call", metadata: metadata)
        case let .refreshLimitCounted(count, limit):
            metadata["count"] = "\(count)"
            metadata["limit"] = "\(limit)"
            logger.info("refresh limit counted an unexplained refresh", metadata: metadata)
        case let .refreshLimitExceeded(count):
            refreshLimitsExceeded.increment()
            metadata["count"] = "\(count)"
            logger.error("refresh limit exceeded: refreshing refused", metadata: metadata)
        case let .serverAnswered(attempt, duration, outcome):
            metadata["attempt"] = "\(attempt)"
            metadata["duration_s"] = "\(Self.seconds(duration))"
            switch outcome {
            case .rotated:
                note(id, outcome: "rotated")
                logger.debug("server rotated the tokens", metadata: metadata)
            case let .rejected(reason):
                note(id, outcome: "rejected")
                metadata["reason"] = "\(reason)"
                logger.notice("server rejected the refresh token", metadata: metadata)
            case let .failed(failure):
                note(id, outcome: "failed")
                metadata["failure"] = "\(failure.kind)"
                metadata["delivery"] = "\(failure.delivery)"
                if let status = failure.statusCode { metadata["status"] = "\(status)" }
                if let retryAfter = failure.retryAfter { metadata["retry_after_s"] = "\(Self.seconds(retryAfter))" }
                logger.warning("refresh failed; the session is kept", metadata: metadata)
            }
        case let .dpopNonceChallenge(attempt):
            metadata["attempt"] = "\(attempt)"
            logger.info("the server asked for a DPoP nonce again; the refresh is not counted", metadata: metadata)
        case .dpopProofRefused:
            logger.warning("the server refused the refresh's DPoP proof; the session is kept", metadata: metadata)
        case let .retryScheduled(attempt, delay):
            retries.increment()
            inFlight.withLock { $0[id]?.span?.addEvent(SpanEvent(name: "retry scheduled", attributes: ["attempt": .int64(Int64(attempt))])) }
            metadata["attempt"] = "\(attempt)"
            metadata["delay_s"] = "\(Self.seconds(delay))"
            logger.info("refresh retry scheduled", metadata: metadata)
        case .saved:
            logger.debug("rotated credentials saved", metadata: metadata)
        case .keptInMemory:
            logger.warning("rotated credentials kept in memory: the store could not save them", metadata: metadata)
        case let .sessionEnded(reason):
            Counter(label: "session_ended_total", dimensions: [("reason", Self.name(of: reason))], factory: metricsFactory).increment()
            metadata["reason"] = "\(reason)"
            logger.notice("session ended", metadata: metadata)
        case let .storeFailed(operation, error):
            metadata["operation"] = "\(operation)"
            metadata["error"] = "\(error)"
            logger.error("token store failed", metadata: metadata)
        case let .refreshFinished(duration, succeeded):
            refreshDuration.recordNanoseconds(Self.nanoseconds(duration))
            let trace = inFlight.withLock { $0.removeValue(forKey: id) } ?? RefreshTrace()
            refreshes[trace.outcome]?.increment()
            if let span = trace.span {
                span.attributes["session.refresh.outcome"] = trace.outcome
                if !succeeded { span.setStatus(SpanStatus(code: .error, message: trace.outcome)) }
                span.end()
            }
            metadata["duration_s"] = "\(Self.seconds(duration))"
            metadata["outcome"] = "\(trace.outcome)"
            logger.debug(succeeded ? "refresh finished" : "refresh failed", metadata: metadata)
        }
    }

    private func note(_ id: Int, outcome: String) {
        inFlight.withLock { $0[id]?.outcome = outcome }
    }

    /// A reason's name for a metric dimension, without its details (codes and statuses vary).
    static func name(of reason: SignOutReason) -> String {
        switch reason {
        case .userSignedOut: "user_signed_out"
        case .accountDeleted: "account_deleted"
        case .refreshTokenRejected: "refresh_token_rejected"
        case .refreshRefused: "refresh_refused"
        case .endedElsewhere: "ended_elsewhere"
        case .replacedByAnotherAccount: "replaced_by_another_account"
        case .dpopNotHonoured: "dpop_not_honoured"
        }
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value.isFinite ? value : 0)
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64(min(max(seconds, 0), 86_400) * 1_000_000_000)
    }
}
