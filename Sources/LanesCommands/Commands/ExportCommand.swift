import ArgumentParser
import Foundation
import Lanes
import LanesCron
import LanesPlatform
import LanesSchedule
internal import Mustache

/// `lanes export --to ...`: a lane's schedule for the scheduler a team already runs, from the
/// `schedule-*.mustache` templates, with `H` resolved the way lanes resolves it.
struct ExportCommand: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case githubActions = "github-actions", kubernetes, systemd, jenkins, launchd
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a lane's schedule for GitHub Actions, Kubernetes, systemd, Jenkins or launchd.",
        discussion: "Secrets are referenced from each system's secret store, never written into the files.")

    @Option(help: "github-actions | kubernetes | systemd | jenkins | launchd")
    var to: Target

    @Option(help: "The lane (required when several lanes are scheduled, except for jenkins, which writes a Jenkinsfile for each).")
    var lane: String?

    @Option(help: "Write the file(s) into this folder instead of printing them.")
    var output: String?

    @Option(name: .customLong("job-name"), help: "jenkins: the job's full name, which Jenkins hashes H from (default: the lane's seed).")
    var jobName: String?

    @Option(help: "kubernetes: the container image that has lanes and the project.")
    var image = "lanes-runner:latest"

    @Flag(help: "launchd: a LaunchDaemon (runs at boot without a login, as the current user) instead of a LaunchAgent.")
    var daemon = false

    @OptionGroup var project: ProjectScheduleOptions

    func run() throws {
        let lanefile = try project.locateLanefile()
        let declarations = try LanefileTriggers.load(lanefile: lanefile, environment: ProcessEnvironment.current())
        let scheduled = declarations.filter(\.isScheduled)
        let chosen: [TriggerDeclaration]
        if let lane {
            guard let found = declarations.first(where: { $0.lane == lane }) else {
                throw LanesError(.usage, "--lane \(lane): no such lane in \(lanefile)")
            }
            guard found.isScheduled else { throw LanesError(.configuration, "lane \(lane) has no .schedule or .pollSCM trigger") }
            chosen = [found]
        } else if to == .jenkins, !scheduled.isEmpty {
            chosen = scheduled  // one Jenkinsfile per lane: a pipeline has one set of triggers
        } else {
            guard scheduled.count == 1 else {
                throw LanesError(.usage, scheduled.isEmpty ? "no lane in \(lanefile) has a schedule"
                                 : "several lanes are scheduled (\(scheduled.map(\.lane).joined(separator: ", "))): pick one with --lane")
            }
            chosen = scheduled
        }
        if jobName != nil, chosen.count > 1 {
            throw LanesError(.usage, "--job-name names one Jenkins job: pick its lane with --lane")
        }
        let installation = try Installation.locate(environment: ProcessEnvironment.current())
        var files: [(name: String, template: String, values: [String: Any])] = []
        for declaration in chosen {
            let exporter = try ScheduleExporter(declaration: declaration, projectDirectory: FilePath.directory(of: lanefile),
                                                now: SystemCronClock().now())
            switch to {
            case .githubActions:
                files.append(("lanes-\(exporter.fileStem).yml", "schedule-github-actions.yml.mustache", try exporter.githubActions()))
            case .kubernetes:
                files.append(("lanes-\(exporter.fileStem).cronjob.yaml", "schedule-kubernetes.yaml.mustache", try exporter.kubernetes(image: image)))
            case .systemd:
                let values = try exporter.systemd(lanesExecutable: try LanefileTriggers.driverExecutable())
                files += [("lanes-\(exporter.fileStem).service", "schedule-systemd.service.mustache", values),
                          ("lanes-\(exporter.fileStem).timer", "schedule-systemd.timer.mustache", values)]
            case .jenkins:
                files.append((chosen.count == 1 ? "Jenkinsfile" : "Jenkinsfile-\(exporter.fileStem)", "schedule-jenkinsfile.mustache",
                              try exporter.jenkins(jobName: jobName ?? declaration.hashSeed)))
            case .launchd:
                let values = try exporter.launchd(lanesExecutable: try LanefileTriggers.driverExecutable(), daemon: daemon,
                                                  machineZone: ScheduleFormat.machineZone(SystemTimeZoneResolver()),
                                                  environment: ProcessEnvironment.current())
                files.append(("\(values["label"] as? String ?? "lanes").plist", "schedule-launchd.plist.mustache", values))
                TextOutput.standardError(Redactor()).writeLine("load it with: \(values["loadCommand"] as? String ?? "")")
            }
        }
        let rendered = try files.map { file in
            (file.name, try MustacheTemplate(string: try FilePath.read(installation.templatesDirectory + "/" + file.template)).render(file.values))
        }
        let out = TextOutput.standardOutput(Redactor())
        if let output {
            let directory = FilePath.absolute(output, from: FilePath.currentDirectory())
            try FilePath.makeDirectories(directory)
            for (name, text) in rendered {
                try AtomicFile.write(text, to: directory + "/" + name)
                out.writeLine("wrote \(directory)/\(name)")
            }
        } else if rendered.count == 1 {
            out.write(rendered[0].1)
        } else {
            for (name, text) in rendered { out.write("# ==> \(name) <==\n\(text)\n") }
        }
    }
}

/// The values the export templates render, for one lane.
struct ScheduleExporter {
    let declaration: TriggerDeclaration
    let projectDirectory: String
    let now: CronInstant
    let resolver = SystemTimeZoneResolver()
    /// Parsed timer specs (H resolved from the lane's seed). A lane with only Poll SCM triggers is
    /// exported on its polling times: the systems below cannot poll, so the job runs at those times
    /// whether or not the branch moved, and `pollNote` says so in the file.
    let timers: [CronSchedule]
    /// The specs `timers` were parsed from.
    let timerSpecs: [String]
    let zone: any CronTimeZone

    init(declaration: TriggerDeclaration, projectDirectory: String, now: CronInstant) throws {
        self.declaration = declaration
        self.projectDirectory = projectDirectory
        self.now = now
        let resolver = SystemTimeZoneResolver()
        timerSpecs = declaration.schedule.isEmpty ? declaration.pollSCM : declaration.schedule
        do {
            timers = try timerSpecs.map { try declaration.parse($0, timeZones: resolver) }
        } catch {
            throw LanesError(.configuration, "lane \(declaration.lane): \(error)")
        }
        let identifier = timers.lazy.compactMap(\.timeZoneIdentifier).first ?? declaration.timeZone ?? TimeZone.current.identifier
        guard let zone = resolver.timeZone(identifier: identifier) else {
            throw LanesError(.configuration, "lane \(declaration.lane): unknown time zone \(identifier)")
        }
        self.zone = zone
    }

    /// `developerRelease` -> `developer-release`: a name Kubernetes, systemd and launchd accept, and
    /// one lane's alone. A camelCase name that starts in lower case maps back to itself (each `-x` was
    /// `X`); any other (`build_ios`, `Build`, longer than 40) is cut to 31 characters and gets 8 hex
    /// digits of a hash of the whole name, so `build_ios` and `buildIos` never share a file or Secret.
    var fileStem: String { Self.fileStem(of: declaration.lane) }

    static func fileStem(of lane: String) -> String {
        var result = ""
        for character in lane {
            if character.isUppercase, !result.isEmpty, result.last != "-" { result.append("-") }
            result.append(character.isASCII && (character.isLetter || character.isNumber) ? Character(character.lowercased()) : "-")
        }
        let reversible = lane.range(of: "^[a-z][A-Za-z0-9]*$", options: .regularExpression) != nil
        if reversible, result.count <= 40 { return result }
        var hash: UInt32 = 0x811c_9dc5  // FNV-1a
        for byte in lane.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(result.prefix(31)) + "-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    var specSummary: String {
        "Spec " + timerSpecs.map { "\"\($0.replacingOccurrences(of: "\n", with: "\\n"))\"" }.joined(separator: ", ")
            + " (seed \"\(declaration.hashSeed)\")"
    }

    var resolved: [String] { timers.flatMap(TriggerDeclaration.resolvedLines) }

    var pollNote: String? {
        if declaration.pollSCM.isEmpty { return nil }
        if declaration.schedule.isEmpty {
            return "pollSCM \(declaration.pollSCM.joined(separator: ", ")) runs here at its polling times whether or not the branch moved "
                + "(this system cannot poll); lanes daemon runs it only when the branch moved."
        }
        return "pollSCM \(declaration.pollSCM.joined(separator: ", ")) is not exported: trigger on pushes in this system, or run lanes daemon."
    }

    private func requireTimers(_ system: String) throws {
        guard !timers.isEmpty else {
            throw LanesError(.configuration, "lane \(declaration.lane) has only pollSCM triggers, which \(system) cannot poll",
                             hint: "trigger it on pushes there, export --to jenkins, or run lanes daemon")
        }
    }

    /// Values every template may use: `lane`, `seed`, `zone`, `specSummary`, `resolved` and
    /// `pollNote` are comment-safe (one line); each format adds its own escaped forms.
    private func common() -> [String: Any] {
        var values: [String: Any] = [
            "lane": ExportText.oneLine(declaration.lane), "laneQuoted": ExportText.quoted(declaration.lane),
            "seed": ExportText.oneLine(declaration.hashSeed), "zone": ExportText.oneLine(zone.identifier),
            "specSummary": ExportText.oneLine(specSummary), "resolved": ExportText.oneLine(resolved.joined(separator: " | ")),
            "unitName": "lanes-\(fileStem)",
            "lanesVersion": LanesVersion.current,
            "xcodeNote": "An Xcode lane (build_app, run_tests on a simulator, the login keychain) cannot run here: "
                + "Xcode exists only on macOS. Export it --to launchd, or to a macOS runner (github-actions).",
        ]
        if let pollNote { values["pollNote"] = ExportText.oneLine(pollNote) }
        if !declaration.variables.isEmpty { values["variableNames"] = declaration.variables.map(ExportText.oneLine).joined(separator: ", ") }
        return values
    }

    /// The lane's declared variable names, each checked to be an identifier before it becomes a key.
    private func variableNames() throws -> [String] {
        for name in declaration.variables where !ExportText.isIdentifier(name) {
            throw LanesError(.configuration, "lane \(declaration.lane): variable \(String(reflecting: name)) is not an environment variable name")
        }
        return declaration.variables
    }

    /// The lane's secret names, each checked to be an identifier before it becomes a key.
    private func secretNames() throws -> [String] {
        for name in declaration.secrets where !ExportText.isIdentifier(name) {
            throw LanesError(.configuration, "lane \(declaration.lane): secret \(String(reflecting: name)) is not an environment variable name")
        }
        return declaration.secrets
    }

    func githubActions() throws -> [String: Any] {
        try requireTimers("GitHub Actions")
        let period = zone.period(containing: Int64(now.secondsSince1970))
        var values = common()
        do {
            values["utcLines"] = try timers.flatMap { try ScheduleTranslation.utcCronLines($0, offsetSeconds: period.offset) }
        } catch {
            throw LanesError(.configuration, "lane \(declaration.lane): cannot convert to UTC: \(error)")
        }
        values["offset"] = Self.offsetText(period.offset)
        values["exportDate"] = String(now.description.prefix(10))
        let upcoming = period.end == .max ? nil : zone.period(containing: period.end)
        if let upcoming, upcoming.offset != period.offset {
            let next = upcoming
            let other = (try? timers.flatMap { try ScheduleTranslation.utcCronLines($0, offsetSeconds: next.offset) })?.joined(separator: " | ") ?? "?"
            let change = CronInstant(secondsSince1970: Double(period.end)).description.prefix(10)
            values["dstNote"] = ExportText.oneLine("DST: \(zone.identifier) changes to \(Self.offsetText(next.offset)) on \(change); GitHub does not follow. Then use `\(other)` (re-export), or runs are an hour off.")
        } else {
            values["dstNote"] = ExportText.oneLine("\(zone.identifier) has no daylight-saving changes ahead: these UTC times stay exact.")
        }
        values["runStepName"] = ExportText.quoted("lanes " + declaration.lane)
        values["runCommand"] = ExportText.quoted("lanes " + ExportText.shellWord(declaration.lane))
        values["secretLines"] = try secretNames().map { "\($0): ${{ secrets.\($0) }}" }
        values["variableLines"] = try variableNames().map { "\($0): ${{ vars.\($0) }}" }
        return values
    }

    func kubernetes(image: String) throws -> [String: Any] {
        try requireTimers("Kubernetes")
        var values = common()
        let lines = resolved
        values["secretName"] = "lanes-\(fileStem)"
        values["jobs"] = lines.enumerated().map { index, line -> [String: Any] in
            [
                "name": lines.count == 1 ? "lanes-\(fileStem)" : "lanes-\(fileStem)-\(index + 1)",
                "schedule": ExportText.quoted(line), "zone": ExportText.quoted(zone.identifier), "image": ExportText.quoted(image),
                "lane": ExportText.quoted(declaration.lane),
                "startingDeadlineSeconds": String(startingDeadline(line: index)),
            ]
        }
        return values
    }

    /// One day (the daemon's catch-up window), shortened so that fewer than 100 schedules fit in
    /// it: Kubernetes stops a CronJob that missed more than 100.
    private func startingDeadline(line: Int) -> Int {
        let entries = timers.flatMap(\.entries)
        guard let schedule = try? CronSchedule(parsing: entries[line].effectiveSpec, seed: nil) else { return 86_400 }
        let times = schedule.fireTimes(onOrAfter: now, defaultZone: zone, count: 200)
        let gaps = zip(times, times.dropFirst()).map { Int($1.secondsSince1970 - $0.secondsSince1970) }
        guard let smallest = gaps.min() else { return 86_400 }
        return max(60, min(86_400, smallest * 50))
    }

    func systemd(lanesExecutable: String) throws -> [String: Any] {
        try requireTimers("systemd")
        var values = common()
        values["calendars"] = timers.flatMap { ScheduleTranslation.systemdCalendar($0, zone: zone.identifier) }.map(ExportText.systemdValue)
        values["laneSystemd"] = ExportText.systemdValue(declaration.lane)
        values["workingDirectory"] = ExportText.systemdValue(projectDirectory)
        values["execStart"] = [lanesExecutable, declaration.lane].map(ExportText.systemdWord).joined(separator: " ")
        return values
    }

    func jenkins(jobName: String) throws -> [String: Any] {
        var values = common()
        values["jobName"] = ExportText.oneLine(jobName)
        let groovy = ExportText.groovy
        let specs = declaration.schedule.map { ("cron", $0) } + declaration.pollSCM.map { ("pollSCM", $0) }
        values["triggers"] = specs.map { kind, spec in "\(kind)(\(groovy(declaration.text(of: spec))))" }
        let asJob = TriggerDeclaration(lane: declaration.lane, schedule: declaration.schedule, pollSCM: declaration.pollSCM,
                                       hashSeed: jobName, timeZone: declaration.timeZone)
        values["resolvedSummary"] = ExportText.oneLine(try specs.map { kind, spec in
            let schedule = try asJob.parse(spec, timeZones: resolver)
            return "\(kind) `\(spec.replacingOccurrences(of: "\n", with: "\\n"))` -> `\(TriggerDeclaration.resolvedLines(of: schedule).joined(separator: " | "))`"
        }.joined(separator: ", "))
        values["secretLines"] = try secretNames().map { "\($0) = credentials(\(groovy($0)))" }
        let variables = try variableNames()
        values["variableLines"] = variables.map { "\($0) = \"${params.\($0)}\"" }
        values["parameterLines"] = variables.map { "string(name: \(groovy($0)), defaultValue: '', description: \(groovy("declared by lane " + declaration.lane)))" }
        if !variables.isEmpty { values["hasParameters"] = true }
        values["stageName"] = groovy(declaration.lane)
        values["shellStep"] = groovy("lanes " + ExportText.shellWord(declaration.lane))
        return values
    }

    /// A LaunchAgent (or, with `daemon`, a LaunchDaemon run as the current user) property list.
    /// launchd reads `StartCalendarInterval` in the Mac's local time zone: a lane in that zone
    /// converts exactly (across DST too); another zone is shifted by today's difference, and the
    /// file says until when that holds.
    func launchd(lanesExecutable: String, daemon: Bool, machineZone: any CronTimeZone,
                 environment: [String: String]) throws -> [String: Any] {
        try requireTimers("launchd")
        var values = common()
        let label = "lanes.\(fileStem)"
        let xml = { (text: String) in MarkupText.escape(text, for: .xml) }
        // One line (no control characters, which XML refuses anyway), and never the sequence "--".
        let comment = { (text: String) in ExportText.oneLine(text).replacingOccurrences(of: "--", with: "- -") }
        var schedules = timers
        if zone.identifier == machineZone.identifier {
            values["zoneNote"] = comment("launchd fires in this Mac's local time, \(zone.identifier), the lane's own zone: "
                + "these times stay exact across daylight-saving changes.")
        } else {
            let instant = Int64(now.secondsSince1970)
            let laneOffset = zone.period(containing: instant).offset, machineOffset = machineZone.period(containing: instant).offset
            do {
                schedules = try timers.map { timer in
                    let lines = try ScheduleTranslation.utcCronLines(timer, offsetSeconds: laneOffset - machineOffset)
                    return try CronSchedule(parsing: lines.joined(separator: "\n"), seed: nil)
                }
            } catch {
                throw LanesError(.configuration, "lane \(declaration.lane): cannot convert from \(zone.identifier) to \(machineZone.identifier) for launchd: \(error)",
                                 hint: "set the lane's .timeZone to the Mac's zone, or run lanes daemon")
            }
            values["zoneNote"] = comment("launchd fires in the Mac's local time: converted from the lane's \(zone.identifier) (UTC\(Self.offsetText(laneOffset))) "
                + "to \(machineZone.identifier) (UTC\(Self.offsetText(machineOffset))) as of \(now.description.prefix(10)); "
                + "re-export after either zone changes its offset (daylight saving).")
        }
        let calendar: [[(key: String, value: Int)]]
        do { calendar = try schedules.flatMap { try ScheduleTranslation.launchdCalendar($0) } } catch {
            throw LanesError(.configuration, "lane \(declaration.lane): cannot express for launchd: \(error)",
                             hint: "split the spec into one line per weekday, or run lanes daemon")
        }
        values["calendar"] = calendar.map { fields in ["fields": fields.map { ["key": $0.key, "value": String($0.value)] }] }
        let home = environment["HOME"] ?? "/var/root"
        let plistFolder = daemon ? "/Library/LaunchDaemons" : "~/Library/LaunchAgents"
        values["loadCommand"] = comment(daemon ? "sudo launchctl bootstrap system \(plistFolder)/\(label).plist"
                                                : "launchctl bootstrap gui/$(id -u) \(plistFolder)/\(label).plist")
        values["label"] = xml(label)
        values["laneComment"] = comment(declaration.lane)
        values["specSummaryComment"] = comment(specSummary)
        if let pollNote { values["pollNoteComment"] = comment(pollNote) }
        values["arguments"] = [lanesExecutable, declaration.lane].map(xml)
        values["projectDirectory"] = xml(projectDirectory)
        values["logPath"] = xml(daemon ? "/Library/Logs/\(label).log" : "\(home)/Library/Logs/\(label).log")
        if daemon, let user = environment["USER"], !user.isEmpty, user != "root" { values["userName"] = xml(user) }
        // launchd starts jobs with a bare PATH: Homebrew's folders first, then the system's.
        values["environment"] = [("LANES_RUN_TRIGGER", "timer"), ("PATH", "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")]
            .map { ["key": xml($0.0), "value": xml($0.1)] }
        return values
    }

    static func offsetText(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(Int(seconds)) / 60
        let hours = minutes / 60, rest = minutes % 60
        return "\(sign)\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
    }
}
