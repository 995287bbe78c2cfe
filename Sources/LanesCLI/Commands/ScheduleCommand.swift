import ArgumentParser
import Lanes
import LanesCron
import LanesPlatform
import LanesSchedule

/// `lanes schedule`: every scheduled lane with its specs, the specs with `H` resolved, the seed, the
/// zone and the next runs, read from the compiled Lanefile.
struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Show every scheduled lane: spec, resolved spec (H replaced), seed, zone and next runs.")

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "How many next runs to show per trigger.")
    var count = 5

    @Option(help: "Start instant, ISO 8601 (default: now).")
    var from: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let lanefile = try project.locateLanefile()
        let declarations = try LanefileTriggers.load(lanefile: lanefile, environment: ProcessEnvironment.current())
        let resolver = SystemTimeZoneResolver()
        let machineZone = ScheduleFormat.machineZone(resolver)
        let start: CronInstant
        if let from {
            guard let parsed = CronInstant(iso8601: from) else {
                throw LanesError(.usage, "--from '\(from)' is not an ISO 8601 time such as 2026-01-01T00:00:00Z")
            }
            start = parsed
        } else {
            start = SystemCronClock().now()
        }
        let entries = try declarations.filter(\.isScheduled).map { declaration in
            try ScheduleEntry(declaration, resolver: resolver, machineZone: machineZone, from: start, count: count)
        }
        let output = TextOutput.standardOutput(Redactor())
        if json {
            output.write(JSONValue.array(entries.map(\.json)).serialized + "\n")
        } else if entries.isEmpty {
            output.writeLine("No lane has a schedule: add .schedule(\"H 0 * * 0-4\") or .pollSCM(\"H/15 * * * *\") to one.")
        } else {
            output.write(entries.map(\.text).joined(separator: "\n"))
        }
    }
}

/// One lane's triggers, resolved.
struct ScheduleEntry {
    struct Trigger {
        let kind: String
        let spec: String
        let resolved: [String]
        let zone: String
        let next: [String]
    }

    let lane: String
    let seed: String
    let triggers: [Trigger]

    init(_ declaration: TriggerDeclaration, resolver: SystemTimeZoneResolver, machineZone: any CronTimeZone,
         from start: CronInstant, count: Int) throws {
        lane = declaration.lane
        seed = declaration.hashSeed
        let specs = declaration.schedule.map { ("schedule", $0) } + declaration.pollSCM.map { ("pollSCM", $0) }
        triggers = try specs.map { kind, spec in
            let schedule: CronSchedule
            do { schedule = try declaration.parse(spec, timeZones: resolver) } catch {
                throw LanesError(.configuration, "lane \(declaration.lane): \(kind) \"\(spec)\": \(error)")
            }
            let zone = schedule.timeZone ?? machineZone
            return Trigger(kind: kind, spec: spec, resolved: TriggerDeclaration.resolvedLines(of: schedule), zone: zone.identifier,
                           next: schedule.fireTimes(onOrAfter: start, defaultZone: zone, count: count).map { ScheduleFormat.local($0, in: zone) })
        }
    }

    var json: JSONValue {
        .object([
            ("lane", .string(lane)),
            ("seed", .string(seed)),
            ("triggers", .array(triggers.map { trigger in
                .object([
                    ("kind", .string(trigger.kind == "pollSCM" ? "poll_scm" : trigger.kind)),
                    ("spec", .string(trigger.spec)),
                    ("resolved", .array(trigger.resolved.map { .string($0) })),
                    ("time_zone", .string(trigger.zone)),
                    ("next", .array(trigger.next.map { .string($0) })),
                ])
            })),
        ])
    }

    var text: String {
        var lines = ["\(lane)  (seed \"\(seed)\")"]
        for trigger in triggers {
            lines.append("  \(trigger.kind) \(trigger.spec.replacingOccurrences(of: "\n", with: " | "))  ->  \(trigger.resolved.joined(separator: " | "))  (\(trigger.zone))")
            lines.append(contentsOf: trigger.next.map { "    \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
