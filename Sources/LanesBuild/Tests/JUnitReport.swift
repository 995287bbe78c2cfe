internal import LanesPlatform

/// JUnit XML for a test run: one `<testsuite>` per suite, one `<testcase>` per test, the failures with
/// their file and line. The layout CI servers (Jenkins, GitLab, GitHub annotations) read.
public enum JUnitReport {
    public static func xml(_ run: TestRunResult, name: String) -> String {
        var suites: [(String, [TestCaseResult])] = []
        for testCase in run.cases {
            if let index = suites.firstIndex(where: { $0.0 == testCase.suite }) {
                suites[index].1.append(testCase)
            } else {
                suites.append((testCase.suite, [testCase]))
            }
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(MarkupText.escape(name))\" tests=\"\(run.total)\" failures=\"\(run.failedCount)\" skipped=\"\(run.skippedCount)\" errors=\"0\" time=\"\(seconds(run.cases))\">\n"
        for (suite, cases) in suites {
            let failures = cases.filter { $0.status == .failed }.count
            let skipped = cases.filter { $0.status == .skipped }.count
            xml += "  <testsuite name=\"\(MarkupText.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\" errors=\"0\" time=\"\(seconds(cases))\">\n"
            for testCase in cases {
                xml += "    <testcase classname=\"\(MarkupText.escape(suite))\" name=\"\(MarkupText.escape(testCase.name))\" time=\"\(format(testCase.duration ?? 0))\""
                if let failure = testCase.failures.first, let file = failure.file {
                    xml += " file=\"\(MarkupText.escape(file))\""
                    if let line = failure.line { xml += " line=\"\(line)\"" }
                }
                switch testCase.status {
                case .passed:
                    xml += "/>\n"
                case .skipped:
                    xml += ">\n      <skipped/>\n    </testcase>\n"
                case .failed:
                    xml += ">\n"
                    let failures = testCase.failures.isEmpty ? [TestFailure(message: "failed")] : testCase.failures
                    for failure in failures {
                        var body = ""
                        if let file = failure.file { body = file + (failure.line.map { ":\($0)" } ?? "") + ": " }
                        body += failure.message
                        xml += "      <failure message=\"\(MarkupText.escape(failure.message))\" type=\"failure\">\(MarkupText.escape(body))</failure>\n"
                    }
                    xml += "    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Writes the report atomically (a reader never sees half a file).
    public static func write(_ run: TestRunResult, name: String, to path: String) throws(BuildError) {
        do {
            try AtomicFile.write(xml(run, name: name), to: path)
        } catch {
            throw .file(path: path, problem: "cannot write the JUnit report: \(error)")
        }
    }

    private static func seconds(_ cases: [TestCaseResult]) -> String {
        format(cases.reduce(0) { $0 + ($1.duration ?? 0) })
    }

    /// Seconds with three decimals, without Foundation's formatters.
    static func format(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + String(repeating: "0", count: fraction < 10 ? 2 : fraction < 100 ? 1 : 0) + "\(fraction)"
    }
}
