public import Lanes
public import LanesDoctor
public import LanesSchedule
import LanesCron
import FoundationEssentials

/// The JSON API's values. Runs and schedules have the shapes of `lanes history --json` and
/// `lanes schedule --json` (a test compares them byte for byte with the commands' output).
public enum WebJSON {
    public static func run(_ run: RunRecord) -> JSONValue {
        func instant(_ value: CronInstant?) -> JSONValue { value.map { .string($0.description) } ?? .null }
        return .object([
            ("id", .number(Double(run.id))),
            ("lane", .string(run.lane)),
            ("trigger", .string(run.trigger.rawValue)),
            ("scheduled", instant(run.scheduled)),
            ("started", instant(run.started)),
            ("ended", instant(run.ended)),
            ("status", .string(run.status.rawValue)),
            ("exitStatus", run.exitStatus.map { .number(Double($0)) } ?? .null),
            ("commit", run.commit.map { .string($0) } ?? .null),
            ("log", run.logPath.map { .string($0) } ?? .null),
            ("note", run.note.map { .string($0) } ?? .null),
        ])
    }

    public static func schedule(_ lane: LaneScheduleView) -> JSONValue {
        .object([
            ("lane", .string(lane.lane)),
            ("seed", .string(lane.seed)),
            ("triggers", .array(lane.triggers.map { trigger in
                .object([
                    ("kind", .string(trigger.kind)),
                    ("spec", .string(trigger.spec)),
                    ("resolved", .array(trigger.resolved.map { .string($0) })),
                    ("timeZone", .string(trigger.timeZone)),
                    ("next", .array(trigger.next.map { .string($0) })),
                ])
            })),
        ])
    }

    static func runDetail(_ run: RunRecord, summary: RunLogSummary) -> JSONValue {
        .object([
            ("run", Self.run(run)),
            ("steps", .array(summary.steps.map { step in
                .object([("index", .number(Double(step.index))), ("id", .string(step.id)),
                         ("duration", .string(step.duration)), ("succeeded", .bool(step.succeeded))])
            })),
            ("failingStep", summary.failingStep.map { .string($0) } ?? .null),
            ("error", summary.error.map { .string($0) } ?? .null),
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
