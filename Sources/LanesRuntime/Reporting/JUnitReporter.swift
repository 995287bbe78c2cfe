import Synchronization
internal import LanesPlatform
internal import LanesWire

/// `--junit PATH`: a JUnit XML report with one test case per step, written atomically when the
/// lane ends so CI servers (Jenkins, GitLab) can show each step.
public final class JUnitReporter: Reporter {
    let path: String
    let redactor: Redactor
    private let records = Mutex<[StepRecord]>([])
    private let outputs = Mutex<[Int: [String]]>([:])
    private let writeFailure = Mutex<String?>(nil)

    public init(path: String, redactor: Redactor) {
        self.path = path
        self.redactor = redactor
    }

    public func report(_ event: RunEvent) {
        switch event {
        case .output(let step, let line):
            outputs.withLock { $0[step, default: []].append(line) }
        case .stepFinished(let record):
            records.withLock { $0.append(record) }
        case .laneFinished(let summary):
            do {
                try AtomicFile.write(document(for: summary), to: path)
            } catch {
                writeFailure.withLock { $0 = "could not write JUnit report \(path): \(error)" }
            }
        default:
            break
        }
    }

    /// Set when the report could not be written; the runner turns it into an error.
    public var failure: String? { writeFailure.withLock { $0 } }

    /// Creates the report's folder and checks that the report can be written there, before the
    /// first step: a lane that deployed must not fail afterwards because of its report.
    public func prepare() throws {
        let folder = FilePath.directory(of: path)
        do {
            try FilePath.makeDirectories(folder)
        } catch {
            throw LanesError(.configuration, "--junit \(path): cannot create the folder \(folder): \(error)")
        }
        var info = stat()
        let existsAsFile = stat(path, &info) == 0
        if existsAsFile, info.st_mode & S_IFMT == S_IFDIR {
            throw LanesError(.configuration, "--junit \(path) is a folder; give the path of the report file")
        }
        let writable = existsAsFile ? faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 && info.st_mode & 0o222 != 0
                                    : faccessat(AT_FDCWD, folder, W_OK | X_OK, AT_EACCESS) == 0
        guard writable else {
            throw LanesError(.configuration, "--junit \(path): the report cannot be written there (permission denied)",
                             hint: "choose a path in a folder you can write, such as build/reports/junit.xml")
        }
    }

    /// The report (`LanesWire.JUnitDocument`, the one JUnit writer): one case per step. Every piece
    /// of text is redacted before the writer escapes it: a secret registered late (after a line was
    /// recorded) is still caught, and masking never touches the XML itself.
    func document(for summary: LaneSummary) -> String {
        var steps = records.withLock { $0 }
        let output = outputs.withLock { $0 }
        if let failure = summary.failure, steps.allSatisfy(\.succeeded) {
            // The lane's own code failed after its steps succeeded: the report must show it.
            steps.append(StepRecord(index: steps.count + 1, id: "lane", banner: summary.lane, duration: .zero,
                                    outcome: .failed(message: failure, outputTail: [])))
        }
        let cases = steps.map { step in
            var outcome = JUnitDocument.Outcome.passed
            if case .failed(let message, let tail) = step.outcome {
                outcome = .failed([JUnitDocument.Failure(message: redactor.redact(message), body: redactor.redact(tail.joined(separator: "\n")))])
            }
            return JUnitDocument.Case(classname: "lanes." + redactor.redact(summary.lane), name: redactor.redact("\(step.index). \(step.id): \(step.banner)"),
                                      time: step.duration.secondsValue, outcome: outcome,
                                      systemOut: output[step.index].map { redactor.redact($0.joined(separator: "\n")) })
        }
        let suite = JUnitDocument.Suite(name: redactor.redact(summary.lane), cases: cases, time: summary.duration.secondsValue)
        return JUnitDocument(name: "lanes", suites: [suite]).xml
    }
}
