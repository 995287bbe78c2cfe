public import LanesCron
public import LanesWire

/// A lane's triggers as the compiled Lanefile's `list --json` reports them (`"triggers"` of each
/// lane): the tool side reads lanes as values, never by scanning Lanefile text.
public struct TriggerDeclaration: Sendable, Hashable {
    public let lane: String
    /// Timer specs, as written.
    public let schedule: [String]
    /// Poll-SCM specs, as written.
    public let pollSCM: [String]
    /// The name `H` is hashed from.
    public let hashSeed: String
    /// The lane's `.timeZone(...)`, if any.
    public let timeZone: String?
    /// Names of the secrets the lane needs: exports take them from the target's secret store.
    public let secrets: [String]
    /// Names of the variables the lane declares (`environment:`): exports pass them through.
    public let variables: [String]

    public init(lane: String, schedule: [String], pollSCM: [String], hashSeed: String, timeZone: String?, secrets: [String] = [],
                variables: [String] = []) {
        self.lane = lane
        self.secrets = secrets
        self.variables = variables
        self.schedule = schedule
        self.pollSCM = pollSCM
        self.hashSeed = hashSeed
        self.timeZone = timeZone
    }

    public var isScheduled: Bool { !schedule.isEmpty || !pollSCM.isEmpty }

    /// The lanes of a `lanes list --json` document (`LanesWire.LaneListingRecord`).
    public static func lanes(in listing: LaneListingRecord) -> [TriggerDeclaration] {
        listing.lanes.map { lane in
            TriggerDeclaration(lane: lane.name, schedule: lane.triggers.schedule, pollSCM: lane.triggers.pollSCM,
                               hashSeed: lane.triggers.hashSeed, timeZone: lane.triggers.timeZone, secrets: lane.secrets,
                               variables: lane.environment)
        }
    }

    /// The spec as LanesCron reads it: with the lane's zone as a `TZ=` first line unless it has one.
    public func text(of spec: String) -> String { CronSchedule.text(spec, defaultingToZone: timeZone) }

    /// Parses one spec with the lane's seed and zone.
    public func parse(_ spec: String, timeZones: some CronTimeZoneResolver) throws(CronSyntaxError) -> CronSchedule {
        try CronPastedCharacters.check(spec)
        return try CronSchedule(parsing: text(of: spec), seed: hashSeed, timeZones: timeZones)
    }

    /// The lane for the scheduler.
    public func scheduledLane(timeZones: some CronTimeZoneResolver) throws(CronSyntaxError) -> ScheduledLane {
        var timers: [CronSchedule] = []
        var polls: [CronSchedule] = []
        for spec in schedule { timers.append(try parse(spec, timeZones: timeZones)) }
        for spec in pollSCM { polls.append(try parse(spec, timeZones: timeZones)) }
        return ScheduledLane(name: lane, timers: timers, polls: polls)
    }

    /// Each line of a schedule with `H` replaced by the values it resolved to: `30 0 * * 0-4`.
    public static func resolvedLines(of schedule: CronSchedule) -> [String] {
        schedule.entries.map { entry in
            CronField.allCases.map { CronDescription.compactValues(entry.table.values(of: $0), field: $0) }.joined(separator: " ")
        }
    }
}
