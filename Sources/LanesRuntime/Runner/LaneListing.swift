#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesCron
internal import LanesPlatform

/// `lanes list`: the lanes as values, from the compiled Lanefile, never by scanning its text.
/// Schedules are parsed here too, so a bad cron spec shows up before any daemon runs it; each shows
/// the seed `H` was hashed with and the minute and hour it resolved to, for comparing with Jenkins.
struct LaneListing {
    struct ScheduleRow {
        /// `schedule` (a timer) or `pollSCM`.
        let kind: String
        let spec: String
        let seed: String
        /// Per schedule line, the resolved minutes and hours (`37`, `0`).
        let minutes: [String]
        let hours: [String]
        /// ISO 8601, or "never".
        let next: String
    }

    let lanefile: Lanefile
    let schedules: [String: [ScheduleRow]]

    init(lanefile: Lanefile, now: Date = Date()) throws {
        let timeZones = SystemTimeZoneResolver()
        self.lanefile = lanefile
        self.schedules = try LaneSchedule.all(in: lanefile, timeZones: timeZones).mapValues { entries in
            entries.map { entry in
                let times = entry.resolvedTimes
                return ScheduleRow(kind: entry.kind == .timer ? "schedule" : "pollSCM", spec: entry.spec, seed: entry.seed, minutes: times.map(\.minute), hours: times.map(\.hour),
                                   next: entry.nextRun(after: now, timeZones: timeZones)?.description ?? "never")
            }
        }
    }

    func render(_ format: RunnerArguments.ListFormat) -> String {
        switch format {
        case .table: table
        case .json: JSONValue.array(lanefile.lanes.map(describe)).serialized + "\n"
        case .names: Self.names(of: lanefile)
        }
    }

    /// One name a line, for shell completion; needs no schedule parsing, so the runner calls it directly.
    static func names(of lanefile: Lanefile) -> String {
        lanefile.lanes.map { $0.name + "\n" }.joined()
    }

    private func describe(_ lane: Lane) -> JSONValue {
        .object([
            ("name", .string(lane.name)),
            ("description", .string(lane.summary)),
            ("options", .array(lane.options.map(describe))),
            ("environment", .array(lane.requiredEnvironment.map { .string($0) })),
            ("secrets", .array(lane.requiredSecrets.map { .string($0) })),
            ("tools", .array(lane.requiredTools.map { .string($0) })),
            ("schedules", .array((schedules[lane.name] ?? []).map { row in
                .object([("kind", .string(row.kind)), ("spec", .string(row.spec)), ("seed", .string(row.seed)),
                         ("minute", .string(row.minutes.joined(separator: ";"))),
                         ("hour", .string(row.hours.joined(separator: ";"))), ("next", .string(row.next))])
            })),
            ("triggers", describe(lane.triggers, of: lane)),
        ])
    }

    /// What `lanes schedule`, `lanes daemon` and `lanes export` read: the specs as written, the seed
    /// `H` is hashed from and the zone.
    private func describe(_ triggers: LaneTriggers, of lane: Lane) -> JSONValue {
        .object([
            ("schedule", .array(lane.timerSpecs.map { .string($0) })),
            ("pollSCM", .array(triggers.pollSCM.map { .string($0) })),
            ("hashSeed", .string(lane.scheduleSeed)),
            ("timeZone", triggers.timeZone.map { .string($0) } ?? .null),
        ])
    }

    private func describe(_ option: OptionInfo) -> JSONValue {
        .object([
            ("name", .string(option.name)),
            ("type", .string(option.typeName)),
            ("summary", .string(option.summary)),
            ("env", option.environmentVariable.map { .string($0) } ?? .null),
            ("secret", .bool(option.isSecret)),
            ("required", .bool(option.isRequired)),
            ("default", option.defaultText.map { .string($0) } ?? .null),
        ])
    }

    /// `H 0 * * 0-4 (seed nightly: minute 37, hour 0; next 2026-11-23T00:37:00Z)`; a Poll SCM
    /// trigger starts with `pollSCM `.
    static func summary(of row: ScheduleRow) -> String {
        (row.kind == "pollSCM" ? "pollSCM " : "") + "\(row.spec) (seed \(row.seed): minute \(row.minutes.joined(separator: "/")), hour \(row.hours.joined(separator: "/")); next \(row.next))"
    }

    private var table: String {
        guard !lanefile.lanes.isEmpty else { return "The Lanefile defines no lanes.\n" }
        let rows = lanefile.lanes.map { lane in
            let options = lane.options.map { "\($0.name):\($0.typeName)" }.joined(separator: " ")
            let schedule = (schedules[lane.name] ?? []).map(Self.summary).joined(separator: "; ")
            return [lane.name, lane.summary, options, schedule]
        }
        return TextTable(header: ["Lane", "Description", "Options", "Triggers"], rows: rows).rendered + "\n"
    }
}
