public import LanesCron

/// A lane's triggers as the compiled Lanefile's `list --json` reports them (`"triggers"` of each
/// lane): the tool side reads lanes as values, never by scanning Lanefile text.
public struct TriggerDeclaration: Sendable, Hashable, Decodable {
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

    /// Decodes the array `lanes list --json` prints, keeping the lanes that have triggers.
    public struct Listing: Decodable {
        public let lanes: [TriggerDeclaration]

        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var lanes: [TriggerDeclaration] = []
            while !container.isAtEnd {
                let entry = try container.decode(Entry.self)
                lanes.append(TriggerDeclaration(lane: entry.name, schedule: entry.triggers.schedule, pollSCM: entry.triggers.pollSCM,
                                                hashSeed: entry.triggers.hashSeed, timeZone: entry.triggers.timeZone,
                                                secrets: entry.secrets ?? [], variables: entry.environment ?? []))
            }
            self.lanes = lanes
        }

        struct Entry: Decodable {
            let name: String
            let triggers: Triggers
            let secrets: [String]?
            let environment: [String]?
        }

        struct Triggers: Decodable {
            let schedule: [String]
            let pollSCM: [String]
            let hashSeed: String
            let timeZone: String?
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
