import LanesTestSupport
import Foundation
import LanesTestSupport
import Testing
import LanesPlatform

/// `lanes export`: each file is checked by the target system's own tool, offline.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ExportCommandTests {
    static func tool(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a tool; returns its exit status, standard output and standard error.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProgramResult {
        var lanes = LanesCommandLine()
        lanes.environment.merge(environment) { $1 }
        return try await lanes.run(arguments, in: URL(fileURLWithPath: "/"), executable: tool)
    }

    /// Exports `lane` to `target` in a fresh folder; returns the folder.
    static func export(_ target: String, lane: String = "developerRelease", extra: [String] = []) async throws -> URL {
        let project = try LanesCommandLine.project("triggers")
        let output = project.appendingPathComponent("exported")
        let result = try await LanesCommandLine().run(["export", "--to", target, "--lane", lane, "--output", output.path] + extra, in: project)
        #expect(result.status == 0, "\(result.output)")
        return output
    }

    static func read(_ url: URL, _ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test(.enabled(if: tool("systemd-analyze") != nil, "needs systemd-analyze (Debian's systemd package; make test-deps installs it)"))
    func systemdUnitsVerifyAndListTheSameInstantsAsLanesSchedule() async throws {
        let analyze = try #require(Self.tool("systemd-analyze"))
        let folder = try await Self.export("systemd")
        let service = folder.appendingPathComponent("lanes-developer-release.service").path
        let timer = folder.appendingPathComponent("lanes-developer-release.timer").path
        let verify = try await Self.run(analyze, ["verify", service, timer])
        #expect(verify.status == 0 && verify.standardError.isEmpty, "\(verify.output)")  // unknown keys only warn on stderr
        let timerText = try Self.read(folder, "lanes-developer-release.timer")
        #expect(timerText.contains("Persistent=true"))
        let calendar = try #require(timerText.split(separator: "\n").first { $0.hasPrefix("OnCalendar=") }).dropFirst("OnCalendar=".count)
        #expect(calendar == "Mon..Thu,Sun *-*-* 00:30:00 Asia/Taipei")

        // The same next 5 instants as `lanes schedule`, compared in UTC.
        let listed = try await Self.run(analyze, ["calendar", "--iterations=5", String(calendar)], environment: ["TZ": "UTC"])
        #expect(listed.status == 0, "\(listed.output)")
        let systemdTimes = listed.standardOutput.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("Next elapse:") || line.contains("Iter. #") else { return nil }
            return line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        }
        let project = try LanesCommandLine.project("triggers")
        let schedule = try await LanesCommandLine().run(["schedule", "--json"], in: project)
        let lanes = try #require(try JSONSerialization.jsonObject(with: Data(schedule.standardOutput.utf8)) as? [[String: Any]])
        let next = try #require((lanes[0]["triggers"] as? [[String: Any]])?[0]["next"] as? [String])
        let formatter = ISO8601DateFormatter()
        let printer = DateFormatter()
        printer.locale = Locale(identifier: "en_US_POSIX")
        printer.timeZone = TimeZone(identifier: "UTC")
        printer.dateFormat = "EEE yyyy-MM-dd HH:mm:ss 'UTC'"
        #expect(systemdTimes == next.compactMap { formatter.date(from: $0).map(printer.string(from:)) })
        #expect(systemdTimes.count == 5)
    }

    @Test(.enabled(if: tool("kubernetes-validate") != nil, "needs kubernetes-validate (PyPI; make test-deps installs it)"))
    func kubernetesCronJobValidatesStrictly() async throws {
        let folder = try await Self.export("kubernetes")
        let file = folder.appendingPathComponent("lanes-developer-release.cronjob.yaml")
        let validate = try await Self.run(try #require(Self.tool("kubernetes-validate")), ["--strict", file.path])
        #expect(validate.status == 0, "\(validate.output)")
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in ["schedule: \"30 0 * * 0-4\"", "timeZone: \"Asia/Taipei\"", "concurrencyPolicy: Forbid", "startingDeadlineSeconds: 86400",
                     "name: lanes-developer-release"] {
            #expect(text.contains(line), "missing \(line)")
        }
        #expect(!text.contains("APP_STORE_KEY="))
        // Day-of-week 7 (Sunday) is written as 0.
        let sunday = try Self.read(try await Self.export("kubernetes", lane: "sunday"), "lanes-sunday.cronjob.yaml")
        #expect(sunday.contains("schedule: \"0 4 * * 0,5,6\""))
    }

    @Test(.enabled(if: tool("check-jsonschema") != nil, "needs check-jsonschema (PyPI; make test-deps installs it)"))
    func githubWorkflowMatchesTheSchemaInUTC() async throws {
        let folder = try await Self.export("github-actions")
        let file = folder.appendingPathComponent("lanes-developer-release.yml")
        let check = try await Self.run(try #require(Self.tool("check-jsonschema")), ["--builtin-schema", "vendor.github-workflows", file.path])
        #expect(check.status == 0, "\(check.output)")
        let text = try String(contentsOf: file, encoding: .utf8)
        // 00:30 Sunday-Thursday in Taipei (+08:00) is 16:30 UTC the day before: Saturday-Wednesday.
        #expect(text.contains("- cron: \"30 16 * * 0-3,6\""))
        #expect(text.contains("Asia/Taipei has no daylight-saving changes ahead"))
        #expect(text.contains("APP_STORE_KEY: ${{ secrets.APP_STORE_KEY }}"))
        // Issue 19: the job installs lanes, sees full history and gets the lane's declared variables.
        // Issue 36: lanes' release archive and the compiled Lanefile come from the cache, keyed by lanes' version and the Lanefile.
        #expect(text.contains("uses: actions/cache@v4"))
        #expect(text.contains("key: lanes-\(LanesVersion.current)-${{ runner.os }}-${{ runner.arch }}-${{ hashFiles('Lanefile.swift', 'lanes/**') }}"), "\(text)")
        #expect(text.contains("/releases/download/v\(LanesVersion.current)/lanes-\(LanesVersion.current)-$os-$(uname -m).tar.gz"))
        #expect(text.contains("LANES_CACHE_DIR: ${{ github.workspace }}/.lanes/cache"))
        #expect(!text.contains("brew install"))
        #expect(text.contains("fetch-depth: 0"))
        #expect(text.contains("APP_FLAVOR: ${{ vars.APP_FLAVOR }}"))
        let newYork = try Self.read(try await Self.export("github-actions", lane: "newYork"), "lanes-new-york.yml")
        #expect(newYork.contains("DST: America/New_York changes to"))
    }

    @Test(.enabled(if: tool("groovyc") != nil, "needs groovyc (Debian's groovy; make test-deps installs it)"))
    func jenkinsfileCompilesAndKeepsH() async throws {
        let folder = try await Self.export("jenkins")
        let text = try Self.read(folder, "Jenkinsfile")
        #expect(text.contains("cron('TZ=Asia/Taipei\\nH 0 * * 0-4')"))
        #expect(text.contains("pollSCM('TZ=Asia/Taipei\\nH/15 * * * *')"))
        #expect(text.contains("as the job \"Brewer/developerRelease\""))
        #expect(text.contains("cron `H 0 * * 0-4` -> `30 0 * * 0-4`"))
        #expect(text.contains("APP_STORE_KEY = credentials('APP_STORE_KEY')"))
        #expect(text.contains("string(name: 'APP_FLAVOR'") && text.contains("APP_FLAVOR = \"${params.APP_FLAVOR}\""), "\(text)")
        let groovy = folder.appendingPathComponent("Jenkinsfile.groovy")
        try text.write(to: groovy, atomically: true, encoding: .utf8)
        let javaHome = ProcessInfo.processInfo.environment["JAVA_HOME"]
            ?? Self.tool("java").map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().path }
        let compile = try await Self.run(try #require(Self.tool("groovyc")), ["-d", folder.appendingPathComponent("classes").path, groovy.path],
                                   environment: javaHome.map { ["JAVA_HOME": $0] } ?? [:])
        #expect(compile.status == 0, "\(compile.output)")
        // Another job name, another minute: the one lanes' Jenkins-exact engine gives for it.
        let other = try await Self.read(try Self.export("jenkins", extra: ["--job-name", "Other/job"]), "Jenkinsfile")
        let explain = try await LanesCommandLine().run(["cron", "explain", "H 0 * * 0-4", "--seed", "Other/job", "--tz", "UTC"], in: folder)
        let minute = try #require(explain.standardOutput.split(separator: "\n").first { $0.contains("minute") }?.split(separator: " ").last)
        #expect(other.contains("cron `H 0 * * 0-4` -> `\(minute) 0 * * 0-4`"), "\(other)")
    }
}

/// `lanes export --to launchd`: the plist reads in Python's plistlib, and an independent reading of
/// launchd's calendar rules fires at exactly the instants `lanes schedule` lists, for 30 days that
/// cross New York's spring daylight-saving change (2027-03-14).
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct LaunchdExportTests {
    static let zone = "America/New_York"
    static let start = "2027-03-01T00:00:00Z"

    static func exportPlist(_ project: URL, lane: String, zone: String = zone, extra: [String] = []) async throws -> (ProgramResult, URL) {
        var lanes = LanesCommandLine()
        lanes.environment["TZ"] = zone
        let output = project.appendingPathComponent("exported-\(lane)")
        let result = try await lanes.run(["export", "--to", "launchd", "--lane", lane, "--output", output.path] + extra, in: project)
        return (result, output.appendingPathComponent("lanes.\(lane).plist"))
    }

    @Test(arguments: ["nightly", "often"]) func firesAtTheInstantsLanesScheduleLists(lane: String) async throws {
        let project = try LanesCommandLine.project("launchd")
        let (export, plist) = try await Self.exportPlist(project, lane: lane)
        #expect(export.status == 0, "\(export.output)")
        #expect(export.standardError.contains("launchctl bootstrap gui/$(id -u) ~/Library/LaunchAgents/lanes.\(lane).plist"), "\(export.output)")
        let text = try String(contentsOf: plist, encoding: .utf8)
        #expect(text.contains("this Mac's local time, \(Self.zone)"))

        let model = project.appendingPathComponent("launchd_fires.py").path
        let fired = try await Program.streams(["python3", model, plist.path, Self.zone, Self.start, "30"])
        #expect(fired.status == 0, "\(fired.error)")
        let launchdTimes = fired.output.split(separator: "\n").map(String.init)

        var lanes = LanesCommandLine()
        lanes.environment["TZ"] = Self.zone
        let schedule = try await lanes.run(["schedule", "--json", "--from", Self.start, "--count", "400"], in: project)
        #expect(schedule.status == 0, "\(schedule.output)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(schedule.standardOutput.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["lane"] as? String == lane })
        let parser = ISO8601DateFormatter()
        let printer = ISO8601DateFormatter()
        printer.timeZone = TimeZone(identifier: "UTC")
        let end = try #require(parser.date(from: Self.start)).addingTimeInterval(30 * 86_400)
        let triggers = try #require(entry["triggers"] as? [[String: Any]])
        let lanesTimes = triggers.flatMap { ($0["next"] as? [String]) ?? [] }
            .compactMap { parser.date(from: $0) }.filter { $0 < end }.map { printer.string(from: $0) }
        #expect(Set(lanesTimes).count > 20)
        #expect(launchdTimes == Set(lanesTimes).sorted(), "launchd \(launchdTimes.count), lanes schedule \(lanesTimes.count)")
    }

    /// launchd fires when the day or the weekday matches; Jenkins only when both do.
    @Test func aSpecRestrictingDayAndWeekdayIsRefused() async throws {
        let project = try LanesCommandLine.project("launchd")
        let (export, _) = try await Self.exportPlist(project, lane: "both")
        #expect(export.status == 78, "\(export.output)")
        #expect(export.standardError.contains("restricts both the day of the month and the weekday"), "\(export.output)")
    }

    /// Another zone than the Mac's converts by today's offsets, and the file says so.
    @Test func anotherZoneIsConvertedAndSaysUntilWhen() async throws {
        let project = try LanesCommandLine.project("launchd")
        let (export, plist) = try await Self.exportPlist(project, lane: "taipei", zone: "Asia/Tokyo", extra: ["--daemon"])
        #expect(export.status == 0, "\(export.output)")
        #expect(export.standardError.contains("sudo launchctl bootstrap system /Library/LaunchDaemons/lanes.taipei.plist"))
        let text = try String(contentsOf: plist, encoding: .utf8)
        #expect(text.contains("converted from the lane's Asia/Taipei (UTC+08:00) to Asia/Tokyo (UTC+09:00)"), "\(text)")
        #expect(text.contains("re-export after either zone changes its offset"), "\(text)")
        // Taipei's 00:MM is Tokyo's 01:MM, on the same days.
        #expect(text.contains("<key>Hour</key>\n            <integer>1</integer>"), "\(text)")
    }
}

/// Issue 21, "exports inject": free text (a hash seed, the project's folder) cannot add lines,
/// keys, arguments or specifiers to any exported file, and two lanes never share a file.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ExportInjectionTests {
    static let targets = ["github-actions", "kubernetes", "systemd", "jenkins", "launchd"]

    /// The fixture in a folder whose name holds a systemd specifier and a command substitution.
    static func hostileProject() throws -> URL {
        let source = try LanesCommandLine.project("hostile-export")
        let project = source.deletingLastPathComponent().appendingPathComponent("proj %h $(touch pwned-dir) \(UUID().uuidString)")
        try FileManager.default.moveItem(at: source, to: project)
        return project
    }

    static func export(_ target: String, lane: String, in project: URL, into folder: URL) async throws -> [URL] {
        let result = try await LanesCommandLine().run(["export", "--to", target, "--lane", lane, "--output", folder.path], in: project)
        #expect(result.status == 0, "\(result.output)")
        return result.standardOutput.split(separator: "\n").compactMap { line in
            line.hasPrefix("wrote ") ? URL(fileURLWithPath: String(line.dropFirst("wrote ".count))) : nil
        }
    }

    @Test(arguments: targets) func aHostileSeedAndFolderStayInsideTheirValues(target: String) async throws {
        let project = try Self.hostileProject()
        let files = try await Self.export(target, lane: "nightly", in: project, into: project.appendingPathComponent("out"))
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{85}" }) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                #expect(!trimmed.hasPrefix("run: touch") && !trimmed.hasPrefix("injected:") && !trimmed.hasPrefix("also:"),
                        "\(file.lastPathComponent): \(line)")
            }
            if target == "systemd", file.pathExtension == "service" {
                #expect(text.contains("WorkingDirectory=\(project.path.replacingOccurrences(of: "%", with: "%%"))\n"), "\(text)")
                #expect(text.contains(#"ExecStart=""#) && text.contains(#"" "nightly""#), "\(text)")
            }
        }
        if target == "github-actions" || target == "kubernetes" {
            // Read as YAML: the documents hold exactly what lanes meant to write.
            let script = """
                import json, sys, yaml
                documents = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None]
                print(json.dumps(documents))
                """
            let parsed = try await Program.streams(["python3", "-c", script, files[0].path])
            #expect(parsed.status == 0, "\(parsed.error)")
            let documents = try #require(try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [[String: Any]])
            if target == "github-actions" {
                let jobs = try #require(documents.first?["jobs"] as? [String: Any])
                let steps = try #require((jobs["lane"] as? [String: Any])?["steps"] as? [[String: Any]])
                #expect(steps.compactMap { $0["run"] as? String }.last == "lanes nightly")
                #expect(steps.compactMap { $0["run"] as? String }.filter { $0.contains("touch") }.isEmpty)
                #expect(Set(documents[0].keys) == ["name", "true", "concurrency", "jobs"], "\(documents[0].keys)")  // YAML 1.1 reads `on` as true
            } else {
                let container = ((((documents.first?["spec"] as? [String: Any])?["jobTemplate"] as? [String: Any])?["spec"] as? [String: Any])?["template"] as? [String: Any])
                let containers = try #require((container?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])
                #expect(containers.first?["args"] as? [String] == ["lanes", "nightly"])
            }
        }
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("pwned-subst").path))
    }

    /// `build_ios` and `buildIos` (and two names alike in their first 40 characters) get files and
    /// Kubernetes Secrets of their own.
    @Test func lanesWithSimilarNamesNeverShareAFile() async throws {
        let project = try LanesCommandLine.project("hostile-export")
        let folder = project.appendingPathComponent("out")
        let lanes = ["build_ios", "buildIos", "aVeryLongLaneNameThatGoesOnAndOnPastFortyCharactersA",
                     "aVeryLongLaneNameThatGoesOnAndOnPastFortyCharactersB"]
        var written: [String] = []
        var secrets: Set<String> = []
        for lane in lanes {
            let files = try await Self.export("kubernetes", lane: lane, in: project, into: folder)
            written += files.map(\.lastPathComponent)
            let text = try String(contentsOf: try #require(files.first), encoding: .utf8)
            #expect(text.contains("args: [\"lanes\", \"\(lane)\"]"), "\(text)")
            secrets.formUnion(text.split(separator: "\n").filter { $0.contains("name: lanes-") && !$0.contains("labels") }.map(String.init))
        }
        #expect(Set(written).count == lanes.count, "\(written)")
        #expect(written.contains("lanes-build-ios.cronjob.yaml"))  // a camelCase name keeps its plain stem
        #expect(written.allSatisfy { $0.count <= "lanes-".count + 40 + ".cronjob.yaml".count }, "\(written)")
    }
}

/// Issue 19: `lanes export --to jenkins` without `--lane` writes a Jenkinsfile for every scheduled
/// lane; the Kubernetes and systemd files say that an Xcode lane cannot run there.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ExportCoverageTests {
    @Test func jenkinsWritesEveryScheduledLane() async throws {
        let project = try LanesCommandLine.project("triggers")
        let output = project.appendingPathComponent("jenkins")
        let result = try await LanesCommandLine().run(["export", "--to", "jenkins", "--output", output.path], in: project)
        #expect(result.status == 0, "\(result.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(names == ["Jenkinsfile-developer-release", "Jenkinsfile-new-york", "Jenkinsfile-sunday", "Jenkinsfile-weekly"], "\(names)")
        let weekly = try String(contentsOf: output.appendingPathComponent("Jenkinsfile-weekly"), encoding: .utf8)
        #expect(weekly.contains("sh 'lanes weekly'") && weekly.contains("cron('H 3 * * 1')"), "\(weekly)")
        let refused = try await LanesCommandLine().run(["export", "--to", "jenkins", "--job-name", "x"], in: project)
        #expect(refused.status == 64 && refused.standardError.contains("--job-name names one Jenkins job"), "\(refused.output)")
    }

    @Test(arguments: [("kubernetes", "lanes-developer-release.cronjob.yaml"), ("systemd", "lanes-developer-release.service")])
    func linuxTargetsSayAnXcodeLaneCannotRunThere(target: String, file: String) async throws {
        let folder = try await ExportCommandTests.export(target)
        let text = try ExportCommandTests.read(folder, file)
        #expect(text.contains("An Xcode lane (build_app, run_tests on a simulator, the login keychain) cannot run here"), "\(text)")
        #expect(text.contains("APP_FLAVOR"), "\(text)")
    }
}
