import ArgumentParser
import Lanes
import Foundation
import Lanes
import LanesCron

/// `lanes cron`: Jenkins-compatible schedules (`H 0 * * 0-4`), their fire times and a batch checker.
struct CronCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cron",
        abstract: "Inspect Jenkins-style cron schedules (with H) the way the lanes daemon runs them.",
        subcommands: [Next.self, Explain.self, Eval.self]
    )

    /// Options shared by `next` and `explain`.
    struct ScheduleOptions: ParsableArguments {
        @Argument(help: "The schedule: five fields or an @alias; several lines, # comments and a TZ= first line allowed.")
        var spec: String

        @Option(help: "The job name that seeds H (Jenkins uses the job's full name; a lane's schedule uses the lane's name). Required when the schedule uses H.")
        var seed: String?

        @Option(help: "Time zone for schedules without a TZ= line (default: this machine's zone).")
        var tz: String?

        /// The parsed schedule and the zone its lines run in; exits 78 with Jenkins' message on a bad spec.
        func load(resolver: SystemTimeZoneResolver) throws -> (schedule: CronSchedule, zone: any CronTimeZone) {
            let zoneIdentifier = tz ?? TimeZone.current.identifier
            guard let defaultZone = resolver.timeZone(identifier: zoneIdentifier) else {
                throw ValidationError("Unknown time zone '\(zoneIdentifier)' for --tz: use an IANA id such as UTC or America/New_York.")
            }
            guard !spec.allSatisfy(\.isWhitespace) else {
                // Parsed, an empty text is a schedule without lines ("never fires"): say what is wrong instead.
                throw LanesError(.configuration, "The schedule is empty: give five fields such as 'H 2 * * 1-5', or an alias such as @daily.")
            }
            let schedule: CronSchedule
            do {
                schedule = try CronSchedule(parsing: spec, seed: seed, timeZones: resolver)
            } catch {
                throw LanesError(.configuration, error.message)
            }
            // Jenkins always hashes H with the job's name; without one, any minute printed here
            // would differ from the one Jenkins (or the lanes daemon) picks. Refuse rather than guess.
            if seed == nil, schedule.entries.contains(where: { $0.effectiveSpec.contains("H") }) {
                throw LanesError(.usage, "'\(spec)' uses H, which Jenkins hashes from the job's name: pass --seed NAME",
                                 hint: "use the Jenkins job's full name, or for a lane's schedule the lane's name (lanes list shows each lane's seed and minute)")
            }
            return (schedule, schedule.timeZone ?? defaultZone)
        }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "next",
            abstract: "Print the next fire times of a schedule.",
            discussion: "Exits 1 with a message when the schedule can never fire (e.g. 0 0 31 2 *)."
        )

        @OptionGroup var schedule: ScheduleOptions

        @Option(help: "Start instant, ISO 8601 (e.g. 2026-01-01T00:00:00Z; without an offset it is read in the schedule's zone). Default: now.")
        var from: String?

        @Option(help: "How many fire times to print.")
        var count: Int = 5

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            guard count >= 0 else { throw ValidationError("--count must be 0 or more, not \(count).") }
        }

        func run() throws {
            let resolver = SystemTimeZoneResolver()
            let (parsed, zone) = try schedule.load(resolver: resolver)
            let start = try CronOutput.startInstant(from, zone: zone)
            let times = parsed.fireTimes(onOrAfter: start, defaultZone: zone, count: count)
            if json {
                let report = NextReport(
                    spec: schedule.spec, seed: schedule.seed, timeZone: zone.identifier, warning: parsed.warning,
                    neverFires: !parsed.canEverFire, next: times.map { CronOutput.local($0, in: zone) })
                try CronOutput.printJSON(report)
            } else {
                for time in times { print(CronOutput.local(time, in: zone)) }
            }
            if !parsed.canEverFire {
                throw LanesError(.laneFailure, "This schedule never fires: no calendar date matches its day-of-month, month and day-of-week together.")
            }
        }

        struct NextReport: Encodable {
            var spec: String
            var seed: String?
            var timeZone: String
            var warning: String?
            var neverFires: Bool
            var next: [String]
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "explain",
            abstract: "Show a schedule's resolved values, its meaning, Jenkins' warning and the next 5 runs."
        )

        @OptionGroup var schedule: ScheduleOptions

        func run() throws {
            let resolver = SystemTimeZoneResolver()
            let (parsed, zone) = try schedule.load(resolver: resolver)
            let now = SystemCronClock().now()
            print(CronOutput.explanation(of: parsed, seed: schedule.seed, zone: zone, from: now))
        }
    }

    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "eval",
            abstract: "Batch mode for checkers: JSON lines in, JSON lines out.",
            discussion: """
                Reads one JSON object per line from standard input, {"id","spec","seed","tz","start"} \
                (seed may be null; tz is the zone for specs without a TZ= line), and writes one line per \
                input line, in order: {"id","ok","error"?,"warning"?,"tabs":[{"minute","hour","dom","month","dow"}],"next":[…]} \
                with up to 5 UTC fire times from start (rounded up to the minute).
                """
        )

        func run() throws {
            let evaluator = CronEvaluator()
            while let line = readLine(strippingNewline: true) {
                print(evaluator.evaluate(jsonLine: line))
                fflush(nil)  // answer each line at once, for checkers that talk to us line by line
            }
        }
    }
}

/// Formatting shared by the `cron` subcommands.
enum CronOutput {
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("lanes cron: \(message)\n".utf8))
    }

    static func startInstant(_ text: String?, zone: any CronTimeZone) throws -> CronInstant {
        guard let text else { return SystemCronClock().now() }
        guard let instant = CronInstant(iso8601: text, zone: zone) else {
            throw ValidationError("--from '\(text)' is not an ISO 8601 time such as 2026-01-01T00:00:00Z or 2026-01-01T09:00.")
        }
        return instant
    }

    /// ISO 8601 with the zone's offset at that instant.
    static func local(_ instant: CronInstant, in zone: any CronTimeZone) -> String {
        instant.iso8601(offset: zone.period(containing: Int64(instant.secondsSince1970.rounded(.down))).offset)
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func explanation(of schedule: CronSchedule, seed: String?, zone: any CronTimeZone, from now: CronInstant) -> String {
        var lines: [String] = []
        let source = schedule.timeZoneIdentifier != nil ? "from the TZ= line" : "default"
        lines.append("Seed: \(seed.map { "\"\($0)\"" } ?? "none (every H takes its lowest value)")")
        lines.append("Time zone: \(zone.identifier) (\(source))")
        if schedule.entries.isEmpty { lines.append("No schedule lines: this never runs.") }
        for entry in schedule.entries {
            lines.append("")
            var heading = "Line \(entry.lineNumber): \(entry.line)"
            if entry.effectiveSpec != entry.line { heading += "  (= \(entry.effectiveSpec))" }
            lines.append(heading)
            for field in CronField.allCases {
                let label = ["minute", "hour", "day-of-month", "month", "day-of-week"][field.rawValue]
                lines.append("  \(label.padding(toLength: 13, withPad: " ", startingAt: 0)) \(CronDescription.compactValues(entry.table.values(of: field), field: field))")
            }
            lines.append("  meaning       \(CronDescription.sentence(for: entry.table))")
        }
        if let warning = schedule.warning {
            lines.append("")
            lines.append("Warning: \(warning)")
        }
        let times = schedule.fireTimes(onOrAfter: now, defaultZone: zone, count: 5)
        if !schedule.entries.isEmpty {
            lines.append("")
            if times.isEmpty {
                lines.append("Next runs: never (no calendar date matches).")
            } else {
                lines.append("Next \(times.count) runs (\(zone.identifier)):")
                lines.append(contentsOf: times.map { "  " + local($0, in: zone) })
            }
        }
        return lines.joined(separator: "\n")
    }
}
