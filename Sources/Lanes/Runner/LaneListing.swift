import FoundationEssentials
import LanesCron

/// `lanes list`: the lanes as values, from the compiled Lanefile, never by scanning its text.
/// Schedules are parsed here too, so a bad cron spec shows up before any daemon runs it.
struct LaneListing {
    let lanefile: Lanefile
    /// Per lane, the next run of each timer spec (ISO 8601, or "never").
    let nextRuns: [String: [String]]

    init(lanefile: Lanefile, now: Date = Date()) throws {
        let timeZones = SystemTimeZoneResolver()
        self.lanefile = lanefile
        self.nextRuns = try LaneSchedule.all(in: lanefile, timeZones: timeZones).mapValues { entries in
            entries.filter { $0.kind == .timer }.map { $0.nextRun(after: now, timeZones: timeZones)?.description ?? "never" }
        }
    }

    func render(json: Bool) -> String {
        json ? JSONValue.array(lanefile.lanes.map(describe)).serialized + "\n" : table
    }

    private func describe(_ lane: Lane) -> JSONValue {
        .object([
            ("name", .string(lane.name)),
            ("description", .string(lane.summary)),
            ("options", .array(lane.options.map(describe))),
            ("environment", .array(lane.requiredEnvironment.map { .string($0) })),
            ("secrets", .array(lane.requiredSecrets.map { .string($0) })),
            ("schedules", .array(zip(lane.timerSpecs, nextRuns[lane.name] ?? []).map { spec, next in
                .object([("spec", .string(spec)), ("next", .string(next))])
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

    private var table: String {
        guard !lanefile.lanes.isEmpty else { return "The Lanefile defines no lanes.\n" }
        let rows = lanefile.lanes.map { lane in
            let options = lane.options.map { "\($0.name):\($0.typeName)" }.joined(separator: " ")
            let schedules = zip(lane.timerSpecs, nextRuns[lane.name] ?? []).map { "\($0) (next \($1))" }
            return [lane.name, lane.summary, options, schedules.joined(separator: "; ")]
        }
        return TextTable(header: ["Lane", "Description", "Options", "Schedule"], rows: rows).rendered + "\n"
    }
}
