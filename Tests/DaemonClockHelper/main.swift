// `lanes daemon`'s loop (LanesSchedule.Daemon) with the real event backend, run launcher and history,
// on an injected clock: real time shifted so that it starts LEAD seconds before a minute. The
// `* * * * *` lane then fires after LEAD real seconds instead of at the next real minute, and the
// timer still fires through the OS backend. With `poll`, a `watch` lane also polls the project's
// `origin` every minute (`pollSCM("* * * * *")`). DaemonTests, DaemonPollTests and
// DaemonHistoryWriteTests drive it.
// Usage: DaemonClockHelper STATE_DIR PROJECT_DIR LANES_DRIVER LEAD_SECONDS [poll]
import Foundation
import LanesCron
import LanesPlatform
import LanesSchedule

/// The wall clock moved by a fixed offset.
struct OffsetClock: CronClock {
    let offset: Double
    func now() -> CronInstant { CronInstant(secondsSince1970: Date().timeIntervalSince1970 + offset) }
}

/// The OS's event backend with its timer set in real time: an instant of the offset clock is
/// `offset` seconds later than the same real instant.
final class OffsetEvents: DaemonEventSource {
    let inner: any DaemonEventSource
    let offset: Double

    init(_ inner: any DaemonEventSource, offset: Double) {
        self.inner = inner
        self.offset = offset
    }

    var backendName: String { inner.backendName }
    var wakeUps: Int { inner.wakeUps }
    func wake(at secondsSince1970: Double?) { inner.wake(at: secondsSince1970.map { $0 - offset }) }
    func next(timeoutMilliseconds: Int32) -> [DaemonEvent] { inner.next(timeoutMilliseconds: timeoutMilliseconds) }
}

let arguments = CommandLine.arguments
guard arguments.count == 5 || (arguments.count == 6 && arguments[5] == "poll"), let lead = Double(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: DaemonClockHelper STATE_DIR PROJECT_DIR LANES_DRIVER LEAD_SECONDS [poll]\n".utf8))
    exit(64)
}
let (state, project, driver, polls) = (arguments[1], arguments[2], arguments[3], arguments.count == 6)
let environment = ProcessInfo.processInfo.environment
do {
    // The backend takes the signals over before any thread starts, as in `lanes daemon`.
    let backend = try DaemonEventBackend.open(lanefile: nil, environment: environment)
    // 1_800_000_000 is a whole minute: the injected clock reads it LEAD seconds from now.
    let minute = 1_800_000_000.0
    let clock = OffsetClock(offset: minute - lead - Date().timeIntervalSince1970)
    for folder in [state, state + "/logs"] { try PrivateFolder.prepare(folder) }
    let store = try HistoryStore(directory: state)
    let everyMinute = try CronSchedule(parsing: "* * * * *", seed: "tick")
    let lanes = [ScheduledLane(name: "tick", timers: [everyMinute])] + (polls ? [ScheduledLane(name: "watch", timers: [], polls: [everyMinute])] : [])
    let poller = polls ? GitChangePoller(repositoryPath: project, remote: "origin", branch: nil, environment: environment) : nil
    let launcher = ProcessRunLauncher(lanesExecutable: driver, projectDirectory: project, lanefile: nil, environment: environment)
    let daemon = try Daemon(store: store, logDirectory: state + "/logs", clock: clock, defaultZone: FixedOffsetTimeZone.utc,
                            poller: poller, events: OffsetEvents(backend, offset: clock.offset), load: { (lanes, launcher) },
                            report: { FileHandle.standardError.write(Data("daemon \(clock.now()): \($0)\n".utf8)) })
    daemon.graceSeconds = 1
    try daemon.run()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
