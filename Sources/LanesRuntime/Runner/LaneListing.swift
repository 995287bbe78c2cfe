#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesCron
internal import LanesPlatform
internal import LanesWire

/// `lanes list`: the lanes as values, from the compiled Lanefile, never by scanning its text.
/// Schedules are parsed here too, so a bad cron spec shows up before any daemon runs it; each shows
/// the seed `H` was hashed with and the minute and hour it resolved to, for comparing with Jenkins.
struct LaneListing {
    struct ScheduleRow {
        /// `schedule` (a timer) or `poll_scm`.
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
                return ScheduleRow(kind: entry.kind == .timer ? LaneListingRecord.Schedule.timer : LaneListingRecord.Schedule.pollSCM, spec: entry.spec, seed: entry.seed, minutes: times.map(\.minute), hours: times.map(\.hour),
                                   next: entry.nextRun(after: now, timeZones: timeZones)?.description ?? "never")
            }
        }
    }

    func render(_ format: RunnerArguments.ListFormat) -> String {
        switch format {
        case .table: table
        case .json: ((try? WireEncoder().encodeText(record)) ?? "{}") + "\n"
        case .names: Self.names(of: lanefile)
        }
    }

    /// One name a line, for shell completion; needs no schedule parsing, so the runner calls it directly.
    static func names(of lanefile: Lanefile) -> String {
        lanefile.lanes.map { $0.name + "\n" }.joined()
    }

    /// The lanes as `lanes list --json` writes them (`LanesWire.LaneListingRecord`).
    var record: LaneListingRecord {
        LaneListingRecord(lanes: lanefile.lanes.map { lane in
            LaneListingRecord.Lane(
                name: lane.name, description: lane.summary,
                options: lane.options.map { option in
                    LaneListingRecord.Option(name: option.name, type: option.typeName, summary: option.summary, env: option.environmentVariable,
                                             secret: option.isSecret, required: option.isRequired, default: option.defaultText)
                },
                environment: lane.requiredEnvironment, secrets: lane.requiredSecrets, tools: lane.requiredTools,
                schedules: (schedules[lane.name] ?? []).map { row in
                    LaneListingRecord.Schedule(kind: row.kind, spec: row.spec, seed: row.seed, minute: row.minutes.joined(separator: ";"),
                                               hour: row.hours.joined(separator: ";"), next: row.next)
                },
                // What `lanes schedule`, `lanes daemon` and `lanes export` read: the specs as written,
                // the seed `H` is hashed from and the zone.
                triggers: LaneListingRecord.Triggers(schedule: lane.timerSpecs, pollSCM: lane.triggers.pollSCM,
                                                     hashSeed: lane.scheduleSeed, timeZone: lane.triggers.timeZone))
        })
    }

    /// `H 0 * * 0-4 (seed nightly: minute 37, hour 0; next 2026-11-23T00:37:00Z)`; a Poll SCM
    /// trigger starts with `pollSCM `.
    static func summary(of row: ScheduleRow) -> String {
        (row.kind == LaneListingRecord.Schedule.pollSCM ? "pollSCM " : "") + "\(row.spec) (seed \(row.seed): minute \(row.minutes.joined(separator: "/")), hour \(row.hours.joined(separator: "/")); next \(row.next))"
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
