#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesCron

/// A lane's cron schedule, parsed with Jenkins' semantics. `H` is hashed from the lane's seed (its
/// name unless `.hashSeed(...)` says otherwise), so a schedule keeps its minute from run to run and
/// machine to machine.
struct LaneSchedule {
    enum Kind { case timer, pollSCM }

    let kind: Kind
    /// The spec as the Lanefile writes it.
    let spec: String
    /// What seeds `H`: the lane's name or its `.hashSeed`, as Jenkins seeds it with the job's name.
    let seed: String
    let schedule: CronSchedule

    /// The minutes and hours `H` resolved to, per schedule line (`37`, `0`), to compare with Jenkins.
    var resolvedTimes: [(minute: String, hour: String)] {
        schedule.entries.map { entry in
            (CronDescription.compactValues(entry.table.values(of: .minute), field: .minute),
             CronDescription.compactValues(entry.table.values(of: .hour), field: .hour))
        }
    }

    /// Parses every trigger of every lane; a bad one fails naming the lane and the character or
    /// Jenkins' message.
    static func all(in lanefile: Lanefile, timeZones: SystemTimeZoneResolver) throws -> [String: [LaneSchedule]] {
        var result: [String: [LaneSchedule]] = [:]
        for lane in lanefile.lanes {
            let specs = lane.timerSpecs.map { (Kind.timer, $0) } + lane.triggers.pollSCM.map { (Kind.pollSCM, $0) }
            result[lane.name] = try specs.map { kind, spec in
                try LaneSchedule(kind: kind, spec: spec, lane: lane, timeZones: timeZones)
            }
        }
        return result
    }

    init(kind: Kind, spec: String, lane: Lane, timeZones: SystemTimeZoneResolver) throws {
        let modifier = kind == .timer ? "schedule" : "pollSCM"
        do {
            try CronPastedCharacters.check(spec)
            schedule = try CronSchedule(parsing: CronSchedule.text(spec, defaultingToZone: lane.triggers.timeZone),
                                        seed: lane.scheduleSeed, timeZones: timeZones)
        } catch {
            throw LanesError(.configuration, "lane \(lane.name): \(modifier) \"\(spec)\": \(error)",
                             hint: "lanes cron explain '\(spec)' --seed '\(lane.scheduleSeed)' shows how lanes reads it")
        }
        if let zone = lane.triggers.timeZone, let own = schedule.timeZoneIdentifier, own != zone {
            throw LanesError(.configuration, "lane \(lane.name): \(modifier) \"\(spec)\" says TZ=\(own) but .timeZone(\"\(zone)\") says \(zone)",
                             hint: "keep one of them")
        }
        self.kind = kind
        self.spec = spec
        self.seed = lane.scheduleSeed
    }

    /// The next run at or after `now` in the machine's zone (or the schedule's `TZ=` line).
    func nextRun(after now: Date, timeZones: SystemTimeZoneResolver) -> CronInstant? {
        guard let zone = timeZones.timeZone(identifier: TimeZone.current.identifier) else { return nil }
        return schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: now.timeIntervalSince1970), defaultZone: zone)
    }
}
