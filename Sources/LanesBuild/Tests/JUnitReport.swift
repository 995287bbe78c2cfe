internal import LanesPlatform
public import LanesWire

/// JUnit XML for a test run: one `<testsuite>` per suite, one `<testcase>` per test, the failures with
/// their file and line. The layout CI servers (Jenkins, GitLab, GitHub annotations) read.
public enum JUnitReport {
    /// The run as a `LanesWire.JUnitDocument`, the one JUnit writer.
    public static func document(_ run: TestRunResult, name: String) -> JUnitDocument {
        var suites: [JUnitDocument.Suite] = []
        for testCase in run.cases {
            var outcome = JUnitDocument.Outcome.passed
            switch testCase.status {
            case .passed: break
            case .skipped: outcome = .skipped
            case .failed:
                let failures = testCase.failures.isEmpty ? [TestFailure(message: "failed")] : testCase.failures
                outcome = .failed(failures.map { failure in
                    var body = ""
                    if let file = failure.file { body = file + (failure.line.map { ":\($0)" } ?? "") + ": " }
                    return JUnitDocument.Failure(message: failure.message, body: body + failure.message)
                })
            }
            let located = testCase.failures.first { $0.file != nil }
            let documented = JUnitDocument.Case(classname: testCase.suite, name: testCase.name, time: testCase.duration ?? 0, outcome: outcome,
                                                file: located?.file, line: located?.file == nil ? nil : located?.line)
            if let index = suites.firstIndex(where: { $0.name == testCase.suite }) {
                suites[index].cases.append(documented)
            } else {
                suites.append(JUnitDocument.Suite(name: testCase.suite, cases: [documented]))
            }
        }
        return JUnitDocument(name: name, suites: suites)
    }

    public static func xml(_ run: TestRunResult, name: String) -> String { document(run, name: name).xml }

    /// Writes the report atomically (a reader never sees half a file).
    public static func write(_ run: TestRunResult, name: String, to path: String) throws(BuildError) {
        do {
            try document(run, name: name).write(to: path)
        } catch {
            throw .file(path: path, problem: "cannot write the JUnit report: \(error)")
        }
    }
}
