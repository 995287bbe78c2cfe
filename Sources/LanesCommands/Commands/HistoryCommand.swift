import ArgumentParser
import LanesWeb
import Lanes
import LanesCron
import LanesPlatform
import LanesSchedule

/// `lanes history [LANE]`: the runs the daemon recorded, newest first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show recorded runs: lane, trigger, scheduled instant, start, end, status, commit and log.")

    @Argument(help: "Only this lane's runs.")
    var lane: String?

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "At most this many runs.")
    var limit = 50

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let store = try project.openStore()
        let runs = try store.runs(lane: lane, limit: limit)
        let output = TextOutput.standardOutput(Redactor())
        if json {
            output.write(JSONValue.array(runs.map(WebJSON.run)).serialized + "\n")
            return
        }
        guard !runs.isEmpty else {
            output.writeLine(lane.map { "No runs of \($0) recorded." } ?? "No runs recorded.")
            return
        }
        func time(_ instant: CronInstant?) -> String { instant?.description ?? "-" }
        let rows = [["ID", "LANE", "TRIGGER", "SCHEDULED", "STARTED", "ENDED", "STATUS", "COMMIT", "LOG"]]
            + runs.map { run in
                [String(run.id), run.lane, run.trigger.rawValue, time(run.scheduled), time(run.started), time(run.ended),
                 run.status.rawValue + (run.exitStatus.map { $0 == 0 ? "" : " (\($0))" } ?? ""),
                 run.commit.map { String($0.prefix(10)) } ?? "-", run.logPath ?? run.eventsPath ?? "-"]
            }
        output.write(ScheduleFormat.columns(rows))
    }
}

/// `lanes logs RUN_ID`: prints a run's log (already redacted by the lane that wrote it); a run started
/// outside the daemon has no log file, so its events are shown as lines.
struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logs", abstract: "Print the log of a recorded run.")

    @Argument(help: "The run's id, as `lanes history` shows it.")
    var runID: Int64

    @OptionGroup var project: ProjectScheduleOptions

    func run() throws {
        let store = try project.openStore()
        guard let run = try store.run(id: runID) else {
            throw LanesError(.usage, "no run \(runID) in \(store.path)", hint: "`lanes history` lists the runs")
        }
        guard let path = run.logPath else {
            if let events = run.eventsPath, let log = try? RunEventLog(path: events) {
                TextOutput.standardOutput(Redactor()).write(log.lines.map { $0 + "\n" }.joined())
                return
            }
            throw LanesError(.configuration, "run \(runID) (\(run.lane)) has no log: it was \(run.status.rawValue)\(run.note.map { " (\($0))" } ?? "")")
        }
        let bytes: [UInt8]
        do { bytes = try FilePath.readBytes(path) } catch {
            throw LanesError(.environment, "cannot read the log of run \(runID) at \(path): \(error)")
        }
        _ = FileDescriptorIO.writeAll(bytes, to: 1)
    }
}
