import ArgumentParser
import Lanes
import LanesCron
import LanesDoctor
import LanesPlatform
import LanesSchedule

/// `lanes daemon`: runs the Lanefile's scheduled lanes in the foreground (for systemd, launchd or a
/// container). Each run is `lanes LANE` through the compiled Lanefile, in its own process group,
/// with its own log; the run history is what `lanes history` shows.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run scheduled lanes in the foreground until SIGTERM or SIGINT.",
        discussion: """
            Sleeps until the next due instant. Records each due run before starting it (a crash never runs \
            it twice); after downtime, the latest run missed within --catch-up-hours runs once, older ones \
            are recorded missed. A lane whose previous run is still going is skipped (and recorded). When \
            Lanefile.swift changes it is recompiled; on a compile error the previous version keeps running.
            Waits on the OS's native event backend, named in its first log line; LANES_EVENT_BACKEND=portable uses \
            poll and a stat of the Lanefile instead. On a Mac, `lanes export --to launchd` lets launchd start \
            each run instead of a daemon.
            """)

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "Seconds running lanes get to finish after SIGTERM/SIGINT before their process groups are killed.")
    var grace: Double = 30

    @Option(name: .customLong("catch-up-hours"), help: "A run missed while the daemon was down runs once at start when at most this old.")
    var catchUpHours: Double = 24

    @Option(help: "The remote poll-SCM triggers fetch.")
    var remote = "origin"

    @Option(help: "The branch poll-SCM triggers track (default: the branch checked out).")
    var branch: String?

    @Option(help: "Also serve the history page on HOST:PORT (as `lanes serve`; off loopback it needs LANES_WEB_TOKEN).")
    var http: String?

    @Flag(name: .customLong("fail-on-expired-signing"),
          help: "Record a due run failed, without starting it, while the daily signing check finds expired material.")
    var failOnExpiredSigning = false

    func run() throws {
        let lanefile = try project.locateLanefile()
        let projectDirectory = FilePath.directory(of: lanefile)
        let stateDirectory = try project.stateDirectory(lanefile: lanefile)
        let environment = ProcessEnvironment.current()
        let errors = TextOutput.standardError(Redactor())
        let report: @Sendable (String) -> Void = { text in errors.writeLine("lanes daemon \(SystemCronClock().now()): \(text)") }
        do {
            // What the daemon records and runs must be the user's alone (issue 21: a planted state
            // folder made a root daemon truncate files through a link and run a planted Lanefile).
            for folder in [stateDirectory, stateDirectory + "/lanefile", stateDirectory + "/logs"] {
                try PrivateFolder.prepare(folder)
            }
            try PrivateFolder.check(lanefile, directory: false)
            // The event backend takes the signals over before any thread starts (LANES_EVENT_BACKEND picks it).
            let events = try DaemonEventBackend.open(lanefile: lanefile, environment: environment)
            let lock = try InstanceLock(path: stateDirectory + "/daemon.lock", projectDirectory: projectDirectory)
            defer { withExtendedLifetime(lock) {} }
            let store = try HistoryStore(directory: stateDirectory)
            // Issue 15: the page and the daily signing expiry watch (DaemonWatch.swift).
            let watch = SigningWatch(stateDirectory: stateDirectory)
            let site = try WebSite(project: project, environment: environment, environmentName: nil, warningDays: 30)
            if let http { try DaemonWatch.startServer(http, site: site, environment: environment, report: report) }
            DaemonWatch.startSigningWatch(watch, inspection: ProjectInspection(lanefile: lanefile, environment: environment),
                                          variables: environment, warningDays: 30)
            let resolver = SystemTimeZoneResolver()
            let snapshot = LanefileSnapshot(lanefile: lanefile, stateDirectory: stateDirectory)
            let driver = try LanefileTriggers.driverExecutable()
            let loader: Daemon.Loader = {
                let candidate = try snapshot.prepareCandidate()
                let declarations = try LanefileTriggers.load(lanefile: candidate, environment: environment)
                let lanes = try declarations.filter(\.isScheduled).map { declaration in
                    do { return try declaration.scheduledLane(timeZones: resolver) } catch {
                        throw LanesError(.configuration, "lane \(declaration.lane): \(error)")
                    }
                }
                let running = try snapshot.promoteCandidate()
                let launcher = ProcessRunLauncher(lanesExecutable: driver, projectDirectory: projectDirectory, lanefile: running,
                                                  environment: environment)
                return (lanes, failOnExpiredSigning ? SigningGatedLauncher(inner: launcher, watch: watch) : launcher)
            }
            let policy = SchedulePolicy(catchUpWindow: catchUpHours * 3600)
            let poller = GitChangePoller(repositoryPath: projectDirectory, remote: remote, branch: branch, environment: environment)
            let daemon = try Daemon(
                store: store, logDirectory: stateDirectory + "/logs", clock: SystemCronClock(),
                defaultZone: ScheduleFormat.machineZone(resolver), policy: policy, poller: poller, events: events,
                load: loader, report: report)
            daemon.graceSeconds = grace
            try daemon.run()
            report("stopped")
        } catch let refusal as PrivateFolder.Refusal {
            throw LanesError(.environment, refusal.message,
                             hint: "run the daemon as the user who owns the project and its state folder (systemd: User=), make them private (chmod go-w), or pass --state-dir to a folder of yours")
        }
    }
}

/// The daemon runs a copy of the Lanefile: the last version that compiled. A changed Lanefile is
/// copied to a candidate and listed (which compiles it); only then does the candidate replace the
/// running copy. The copy differs from the user's file by its first line (`#sourceLocation`), which
/// the runner cache's key leaves out: the daemon runs the runner `lanes list` compiled.
struct LanefileSnapshot {
    let lanefile: String
    let stateDirectory: String

    var candidatePath: String { stateDirectory + "/lanefile/candidate/Lanefile.swift" }
    var runningPath: String { stateDirectory + "/lanefile/running/Lanefile.swift" }

    /// The Lanefile with its `lanes/` folder (parts, manifest, pins): a change that does not compile
    /// or whose packages do not build leaves the running copy, and its cached runner, in use. The
    /// copy starts with `#sourceLocation` naming the user's file, so a compile error (and
    /// `#filePath`) points at the Lanefile the user edits, not at this copy. The line directive shifts
    /// nothing: the copy's line 2 is reported as line 1.
    func prepareCandidate() throws -> String {
        try PrivateFolder.check(lanefile, directory: false)
        try PrivateFolder.prepare(FilePath.directory(of: candidatePath))
        try copy(lanefile, to: candidatePath, prefix: Array(Self.sourceLocation(of: lanefile).utf8))
        return candidatePath
    }

    static func sourceLocation(of path: String) -> String {
        var literal = ""
        for character in path {
            switch character {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            default: literal.append(character)
            }
        }
        return "#sourceLocation(file: \"\(literal)\", line: 1)\n"
    }

    func promoteCandidate() throws -> String {
        try PrivateFolder.prepare(FilePath.directory(of: runningPath))
        try copy(candidatePath, to: runningPath)
        return runningPath
    }

    /// The folder the packages' relative paths are meant from, recorded beside a copied manifest.
    static let originFile = ".lanes-origin"

    private func copy(_ source: String, to destination: String, prefix: [UInt8] = []) throws {
        try FilePath.makeDirectories(FilePath.directory(of: destination))
        try AtomicFile.write(prefix + (try FilePath.readBytes(source)), to: destination)
        let parts = FilePath.directory(of: source) + "/lanes"
        let copies = FilePath.directory(of: destination) + "/lanes"
        FilePath.removeTree(copies)
        let names = FilePath.entries(of: parts).filter { $0.hasSuffix(".swift") || $0 == "Package.resolved" || $0 == Self.originFile }
        guard !names.isEmpty else { return }
        try FilePath.makeDirectories(copies)
        for name in names where !FilePath.isDirectory(parts + "/" + name) {
            try AtomicFile.write(try FilePath.readBytes(parts + "/" + name), to: copies + "/" + name)
        }
        if FilePath.exists(parts + "/Package.swift"), !FilePath.exists(parts + "/" + Self.originFile) {
            try AtomicFile.write(parts + "\n", to: copies + "/" + Self.originFile)
        }
    }
}
