public import LanesPlatform
public import LanesDoctor
public import LanesSchedule
import LanesCron
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON API's values. Runs and schedules have the shapes of `lanes history --json` and
/// `lanes schedule --json` (a test compares them byte for byte with the commands' output).
public enum WebJSON {
    /// `{"error": MESSAGE}`, how every API route says it failed.
    static func error(_ message: String) -> String {
        JSONValue.object([("error", .string(message))]).serialized + "\n"
    }

    public static func run(_ run: RunRecord) -> JSONValue {
        func instant(_ value: CronInstant?) -> JSONValue { value.map { .string($0.description) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        func number(_ value: Int64?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        let fields: [(String, JSONValue)] = [
            ("id", .number(Double(run.id))),
            ("lane", .string(run.lane)),
            ("trigger", .string(run.trigger.rawValue)),
            ("scheduled", instant(run.scheduled)),
            ("started", instant(run.started)),
            ("ended", instant(run.ended)),
            ("status", .string(run.status.rawValue)),
            ("exitStatus", number(run.exitStatus.map(Int64.init))),
            ("commit", text(run.commit)),
            ("log", text(run.logPath)),
            ("events", text(run.eventsPath)),
            ("note", text(run.note)),
            ("error", text(run.error)),
            ("version", text(run.version)),
            ("buildNumber", text(run.buildNumber)),
            ("artifacts", .array(run.artifacts.map(JSONValue.string))),
            ("steps", .array(run.steps.map(step))),
        ]
        return .object(fields)
    }

    /// One step as its events recorded it.
    public static func step(_ step: RunStep) -> JSONValue {
        .object([
            ("index", .number(Double(step.index))), ("id", .string(step.id)), ("banner", .string(step.banner)),
            ("durationMs", step.durationMilliseconds.map { JSONValue.number(Double($0)) } ?? JSONValue.null),
            ("result", .string(step.succeeded.map { $0 ? "ok" : "failed" } ?? "unfinished")),
            ("error", step.error.map(JSONValue.string) ?? JSONValue.null),
        ])
    }

    public static func schedule(_ lane: LaneScheduleView) -> JSONValue {
        .object([
            ("lane", .string(lane.lane)),
            ("seed", .string(lane.seed)),
            ("triggers", .array(lane.triggers.map { trigger in
                .object([
                    ("kind", .string(trigger.kind == "pollSCM" ? "poll_scm" : trigger.kind)),
                    ("spec", .string(trigger.spec)),
                    ("resolved", .array(trigger.resolved.map { .string($0) })),
                    ("time_zone", .string(trigger.timeZone)),
                    ("next", .array(trigger.next.map { .string($0) })),
                ])
            })),
        ])
    }

    static func runDetail(_ run: RunRecord) -> JSONValue {
        .object([
            ("run", Self.run(run)),
            ("logURL", .string("/runs/\(run.id)/log")),
        ])
    }

    public static func signing(_ health: SigningHealth) -> JSONValue {
        func countdown(_ value: ExpiryCountdown?) -> JSONValue {
            guard let value else { return .null }
            return .object([
                ("name", .string(value.name)), ("path", .string(value.path)),
                ("expires", .string(CronInstant(secondsSince1970: value.expires.timeIntervalSince1970).description)),
                ("daysLeft", .number(Double(value.daysLeft))), ("severity", .string(value.severity.rawValue)),
            ])
        }
        return .object([
            ("configuration", .string(health.configuration)),
            ("appIdentifier", .string(health.appIdentifier)),
            ("severity", .string(health.severity.rawValue)),
            ("certificate", countdown(health.certificate)),
            ("profile", countdown(health.profile)),
            ("findings", .array(health.findings.map(finding))),
        ])
    }

    public static func finding(_ finding: DoctorFinding) -> JSONValue {
        .object([
            ("area", .string(finding.area.rawValue)), ("subject", .string(finding.subject)),
            ("severity", .string(finding.severity.rawValue)), ("message", .string(finding.message)),
            ("fix", finding.fix.map { .string($0) } ?? .null),
        ])
    }
}
