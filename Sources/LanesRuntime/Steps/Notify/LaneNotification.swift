import LanesUpload
internal import LanesPlatform
import LanesHTTP

/// When the running lane started, for the duration a notification reports.
public enum LaneStartTime: LaneValueKey {
    public typealias Value = ContinuousClock.Instant
}

/// The error the lane failed with (redacted text), set before the `OnError` hooks run.
public enum LaneFailureText: LaneValueKey {
    public typealias Value = String
}

/// What a notification says about the lane: its name, result, duration, version and the step that
/// failed, read from the running lane, so a hook needs to pass nothing.
struct LaneNotification {
    let lane: String
    let succeeded: Bool
    let durationSeconds: Double?
    let version: String?
    let failingStep: String?
    let error: String?
    let message: String?

    init(context: StepContext, success: Bool?, version: String?, message: String?) {
        lane = context.values[RunningLaneName.self] ?? "(no lane)"
        let failure = context.values[LaneFailureText.self]
        let failedRecord = LaneRun.current?.records.last { record in
            if case .failed = record.outcome { return true }
            return false
        }
        succeeded = success ?? (failure == nil && failedRecord == nil)
        durationSeconds = context.values[LaneStartTime.self].map { start in
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        let built = context.values[BuiltAppValue.self]
        self.version = version ?? built?.version.map { v in v + (built?.build.map { " (\($0))" } ?? "") }
        failingStep = succeeded ? nil : failedRecord?.id
        error = succeeded ? nil : failure
        self.message = message
    }

    var result: String { succeeded ? "success" : "failure" }

    var headline: String {
        message ?? "Lane \(lane) \(succeeded ? "succeeded" : "failed")" + (failingStep.map { " in step \($0)" } ?? "")
    }

    var durationText: String? {
        durationSeconds.map { seconds in
            seconds < 60 ? "\(Int(seconds.rounded())) s" : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
        }
    }

    /// The generic webhook body.
    var json: JSONValue {
        .object([("lane", .string(lane)), ("result", .string(result)), ("message", .string(headline)),
                 ("duration_seconds", durationSeconds.map { .number(($0 * 10).rounded() / 10) } ?? .null),
                 ("version", version.map(JSONValue.string) ?? .null), ("failing_step", failingStep.map(JSONValue.string) ?? .null),
                 ("error", error.map(JSONValue.string) ?? .null)])
    }
}

extension StepContext {
    /// POSTs a JSON document (every string redacted before it is encoded), retrying what HTTP says
    /// may pass (5xx, 429, lost connections). A failure is logged and, unless `failOnError`, swallowed:
    /// a notification must not fail the lane it reports on.
    func postNotification(_ body: JSONValue, to urlText: String, what: String, failOnError: Bool,
                          headers: [(name: String, value: String)] = [], attempts: Int = 3) throws {
        let redactor = environment.redactor
        do {
            guard let url = HTTPURL(urlText) else {
                throw LanesError(.configuration, "\(what): the URL is not an http(s) URL")
            }
            let log = self.log
            let client = HTTPClient(timeouts: RequestTimeouts(connect: 10, idle: 20), retry: RetryPolicy(attempts: attempts, baseDelay: 0.5, maximumDelay: 4),
                                    // The retry text names the URL, which may be the credential (a Slack webhook).
                                    onRetry: { _ in log.line("retrying \(what)") })
            let bytes = Array(body.serialized(redactor: redactor).utf8)
            let response = try client.send(HTTPRequest(method: "POST", url: url,
                                                       headers: [("Content-Type", "application/json"), ("Content-Length", String(bytes.count))] + headers,
                                                       body: .bytes(bytes)))
            guard (200..<300).contains(response.status) else {
                throw LanesError(.laneFailure, "\(what): the server answered HTTP \(response.status)")
            }
            log.line("sent \(what) (HTTP \(response.status))")
        } catch {
            let text = redactor.redact(String(describing: error))
            guard failOnError else {
                log.line("warning: \(what) was not sent: \(text) (fail_on_error:true makes this fail the lane)")
                return
            }
            throw LanesError(.laneFailure, "\(what) was not sent: \(text)")
        }
    }
}
