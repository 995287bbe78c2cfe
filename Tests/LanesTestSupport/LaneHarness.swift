import Foundation
import LanesPlatform
import LanesRuntime
import LanesWire

/// Runs a Lanefile in the test process, as `lanes` would run its compiled runner, over a test host:
/// the exit status the runner's `main` would exit with, the typed events it recorded (its
/// `events.jsonl`, read back through `LanesWire.RunEventRecord`) and what it printed.
public enum LaneHarness {
    public struct Run: Sendable {
        public let status: Int32
        public let events: [RunEventRecord]
        public let output: String
        public let errors: String

        /// The step records that finished, in order.
        public var finishedSteps: [RunEventRecord.StepFinished] {
            events.compactMap { if case .stepFinished(let step) = $0 { step } else { nil } }
        }

        public var laneFinished: RunEventRecord.LaneFinished? {
            events.lazy.compactMap { if case .laneFinished(let lane) = $0 { lane } else { nil } }.first
        }

        /// Every line of output the lane's steps and hooks produced, from the events.
        public var outputLines: [String] {
            events.flatMap { event -> [String] in
                switch event {
                case .output(let output): [output.line]
                case .outputBatch(let batch): batch.lines
                default: []
                }
            }
        }
    }

    /// Runs `lanefile` with `arguments` (a lane and its options, `--json`, ...) over `host`. The run
    /// folder, the project folder and the state folder are `directory` (a fresh one by default).
    public static func run(_ lanefile: Lanefile, _ arguments: [String], host: TestHost, directory: String? = nil) async -> Run {
        let project = directory ?? (try? TemporaryDirectory().path) ?? NSTemporaryDirectory()
        let folder = project + "/.lanes/run"
        let status = await LanefileRunner.run(lanefile, arguments: arguments + ["--project-dir", project, "--run-folder", folder], host: host)
        let events = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/events.jsonl")))
            .map { Array($0).split(separator: UInt8(ascii: "\n")).compactMap { RunEventRecord(line: $0) } } ?? []
        return Run(status: status, events: events, output: host.output.text, errors: host.errors.text)
    }
}
