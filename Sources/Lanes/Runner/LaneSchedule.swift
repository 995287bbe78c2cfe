import FoundationEssentials
import LanesCron

/// A lane's cron schedule, parsed with Jenkins' semantics. `H` is hashed from the lane's name, so a
/// schedule keeps its minute from run to run and machine to machine.
struct LaneSchedule {
    let spec: String
    /// What seeds `H`: the lane's name, as Jenkins seeds it with the job's name.
    let seed: String
    let schedule: CronSchedule

    /// The minutes and hours `H` resolved to, per schedule line (`37`, `0`), to compare with Jenkins.
    var resolvedTimes: [(minute: String, hour: String)] {
        schedule.entries.map { entry in
            (CronDescription.compactValues(entry.table.values(of: .minute), field: .minute),
             CronDescription.compactValues(entry.table.values(of: .hour), field: .hour))
        }
    }

    /// Parses every schedule of every lane; a bad one fails naming the lane and Jenkins' message.
    static func all(in lanefile: Lanefile, timeZones: SystemTimeZoneResolver) throws -> [String: [LaneSchedule]] {
        var result: [String: [LaneSchedule]] = [:]
        for lane in lanefile.lanes {
            result[lane.name] = try lane.schedules.map { spec in
                do {
                    return LaneSchedule(spec: spec, seed: lane.name, schedule: try CronSchedule(parsing: spec, seed: lane.name, timeZones: timeZones))
                } catch {
                    throw LanesError(.configuration, "lane \(lane.name): schedule \"\(spec)\": \(error)",
                                     hint: "lanes cron explain '\(spec)' --seed \(lane.name) shows how lanes reads it")
                }
            }
        }
        return result
    }

    /// The next run at or after `now` in the machine's zone (or the schedule's `TZ=` line).
    func nextRun(after now: Date, timeZones: SystemTimeZoneResolver) -> CronInstant? {
        guard let zone = timeZones.timeZone(identifier: TimeZone.current.identifier) else { return nil }
        return schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: now.timeIntervalSince1970), defaultZone: zone)
    }
}
