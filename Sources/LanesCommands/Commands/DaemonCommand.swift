import ArgumentParser
import Foundation
import Lanes
import LanesCron
import LanesDoctor
import LanesPlatform
import LanesSchedule
import LanesWeb

/// `lanes daemon`: runs the Lanefile's scheduled lanes in the foreground (for systemd, launchd or a
/// container). Each run is `lanes LANE` through the compiled Lanefile, in its own process group,
/// with its own log; the run history is what `lanes history` shows. The work is `DaemonProgram`'s.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run scheduled lanes in the foreground until SIGTERM, SIGINT or SIGHUP.",
        discussion: """
            Sleeps until the next due instant. Records each due run before starting it (a crash never runs \
            it twice); after downtime, the latest run missed within --catch-up-hours runs once, older ones \
            are recorded missed. A lane whose previous run is still going is skipped (and recorded). When \
            Lanefile.swift changes it is recompiled; on a compile error the previous version keeps running. \
            On a Mac, `lanes export --to launchd` lets launchd start each run instead of a daemon.
            """)

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "Seconds running lanes get to finish after SIGTERM/SIGINT/SIGHUP before their process groups are killed.")
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

    func run() async throws {
        let host = SystemHost()
        let lanefile = try project.locateLanefile()
        let project = self.project
        let program = DaemonProgram(
            lanefile: lanefile, stateDirectory: try project.stateDirectory(lanefile: lanefile), environment: host.environment,
            grace: grace, catchUpHours: catchUpHours, remote: remote, branch: branch, http: http,
            failOnExpiredSigning: failOnExpiredSigning,
            site: { [environment = host.environment] in try WebSite(project: project, environment: environment, environmentName: nil, warningDays: 30) })
        try await program.run(host: host)
    }
}

/// `lanes daemon` composed: the state folders and the instance lock, the history, the Lanefile's
/// snapshot and how its lanes are read, the scheduler loop (`LanesSchedule.Daemon`), and around it
/// the history page (`--http`) and the daily signing watch, all tasks of one task group on the
/// host's clock. The first stop signal ends the loop (gracefully: running lanes get `grace`), then
/// the page and the watch.
struct DaemonProgram: Sendable {
    let lanefile: String
    let stateDirectory: String
    let environment: [String: String]
    var grace: Double = 30
    var catchUpHours: Double = 24
    var remote = "origin"
    var branch: String?
    var http: String?
    var failOnExpiredSigning = false
    /// The web site's data (only built with `--http`).
    var site: @Sendable () throws -> WebSite
    /// The lanes of a Lanefile copy, as its compiled runner lists them.
    var listLanes: @Sendable (_ lanefile: String, _ host: any LanesPlatform.Host) async throws -> [TriggerDeclaration] = { lanefile, host in
        try await LanefileTriggers.load(lanefile: lanefile, host: host)
    }
    /// The `lanes` driver the runs go through.
    var driver: @Sendable () throws -> String = { try LanefileTriggers.driverExecutable() }
    /// The Lanefile's signing material, for the daily watch.
    var signingMaterial: (@Sendable () throws -> [SigningMaterial])?

    var projectDirectory: String { FilePath.directory(of: lanefile) }

    func run(host: any LanesPlatform.Host) async throws {
        let errors = host.standardError
        let report: @Sendable (String) -> Void = { text in
            errors.write(Array("lanes daemon \(CronInstant(secondsSince1970: host.wallClock())): \(text)\n".utf8))
        }
        do {
            // What the daemon records and runs must be the user's alone (issue 21: a planted state
            // folder made a root daemon truncate files through a link and run a planted Lanefile).
            for folder in [stateDirectory, stateDirectory + "/lanefile", stateDirectory + "/logs"] {
                try PrivateFolder.prepare(folder)
            }
            try PrivateFolder.check(lanefile, directory: false)
        } catch let refusal as PrivateFolder.Refusal {
            throw LanesError(.environment, refusal.message,
                             hint: "run the daemon as the user who owns the project and its state folder (systemd: User=), make them private (chmod go-w), or pass --state-dir to a folder of yours")
        }
        let lock = try InstanceLock(path: stateDirectory + "/daemon.lock", projectDirectory: projectDirectory)
        defer { withExtendedLifetime(lock) {} }
        let store = try HistoryStore(directory: stateDirectory)
        // Issue 15: the page and the daily signing expiry watch.
        let watch = SigningWatch(stateDirectory: stateDirectory)
        let server = try http.map { try Self.server(on: $0, site: try site(), environment: self.environment, report: report) }
        let resolver = SystemTimeZoneResolver()
        let snapshot = LanefileSnapshot(lanefile: lanefile, stateDirectory: stateDirectory)
        let driver = try self.driver()
        let listLanes = self.listLanes, projectDirectory = self.projectDirectory, environment = self.environment
        let failOnExpiredSigning = self.failOnExpiredSigning
        let loader: Daemon.Loader = {
            let candidate = try snapshot.prepareCandidate()
            let declarations = try await listLanes(candidate, host)
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
        let daemon = try await Daemon(
            store: store, logDirectory: stateDirectory + "/logs", host: host,
            defaultZone: ScheduleFormat.machineZone(resolver), policy: SchedulePolicy(catchUpWindow: catchUpHours * 3600),
            poller: GitChangePoller(repositoryPath: projectDirectory, remote: remote, branch: branch, environment: environment),
            lanefile: lanefile, load: loader, report: report)
        daemon.graceSeconds = grace
        let material = signingMaterial ?? { [lanefile] in try ProjectInspection(lanefile: lanefile, environment: environment).signingMaterial() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let server {
                report(Self.servingNote(server, stateDirectory: stateDirectory, environment: environment))
                group.addTask { await Self.serve(server, report: report) }
            }
            group.addTask { await Self.watchSigning(watch, material: material, variables: environment, host: host, report: report) }
            try await daemon.run()
            group.cancelAll()
        }
    }

    static func server(on http: String, site: WebSite, environment: [String: String],
                       report: @escaping @Sendable (String) -> Void) throws -> HTTPServer {
        guard let address = ListenAddress(parsing: http) else {
            throw LanesError(.usage, "--http '\(http)' is not HOST:PORT with an IPv4 address, such as 127.0.0.1:7340")
        }
        let access = try WebAccess.policy(address: address, stateDirectory: site.stateDirectory, environment: environment, report: report)
        let application = WebApplication(data: site.source, access: access)
        let server: HTTPServer
        do { server = try HTTPServer(listeningOn: address, report: report, handler: application.handle) } catch {
            throw LanesError(.environment, error.description)
        }
        return server
    }

    /// Where a browser signs in; the daemon's output may go to a log others read: it names where
    /// the token is, not the token.
    static func servingNote(_ server: HTTPServer, stateDirectory: String, environment: [String: String]) -> String {
        let tokenSource = (environment[AccessPolicy.tokenVariable] ?? "").isEmpty
            ? "\(stateDirectory)/\(WebToken.fileName)" : "$\(AccessPolicy.tokenVariable)"
        return "serving the history on http://\(server.address)/ (sign a browser in once with http://\(server.address)\(AccessPolicy.loginPath)?token=TOKEN, the token in \(tokenSource))"
    }

    /// Serves the page until the daemon stops (its accept loop blocks: a thread of its own).
    static func serve(_ server: HTTPServer, report: @escaping @Sendable (String) -> Void) async {
        do {
            try await BlockingThread.run(onCancel: { server.stop() }) { try server.run() }
        } catch {
            if !Task.isCancelled { report("the history page stopped: \(error); the daemon keeps scheduling") }
        }
    }

    /// Checks the Lanefile's signing material now and then whenever the last check is a day old;
    /// the result goes to `signing-watch.json` in the state folder.
    static func watchSigning(_ watch: SigningWatch, material: @escaping @Sendable () throws -> [SigningMaterial],
                             variables: [String: String], host: any LanesPlatform.Host, report: @escaping @Sendable (String) -> Void) async {
        while !Task.isCancelled {
            let now = Date(timeIntervalSince1970: host.wallClock())
            if watch.isDue(at: now) {
                do {
                    // Listing the Lanefile may compile it: off the cooperative pool.
                    let record = try await BlockingThread.run(onCancel: {}) {
                        try watch.checkIfDue(try material(), checkup: SigningCheckup(warningDays: 30), variables: variables, at: now)
                    }
                    for finding in record.health.flatMap(\.findings) where finding.severity != .ok {
                        report("signing \(finding.severity.rawValue): \(finding.subject): \(finding.message)")
                    }
                } catch {
                    report("the signing expiry check failed: \(error)")
                }
            }
            do { try await host.sleep(for: .seconds(3600)) } catch { return }
        }
    }
}

/// Refuses to start a run while the last expiry check found expired signing material; the daemon
/// then records the run failed with that reason, before any build starts (`--fail-on-expired-signing`).
struct SigningGatedLauncher: RunLauncher {
    let inner: any RunLauncher
    let watch: SigningWatch

    func start(_ run: PlannedRun, logPath: String, host: any LanesPlatform.Host) throws -> HostChild {
        if let note = watch.latest().flatMap({ SigningWatch.expiredMaterial(in: $0.health) }) {
            throw LanesError(.configuration, note)
        }
        return try inner.start(run, logPath: logPath, host: host)
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
