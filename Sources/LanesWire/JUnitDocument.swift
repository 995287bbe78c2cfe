public import LanesPlatform

/// A JUnit XML report, the layout CI servers (Jenkins, GitLab, GitHub annotations) read: one
/// `<testsuite>` per suite, one `<testcase>` per test or step, failures with their message and
/// where they happened. The one writer of it: `--junit` (one case per step) and `run_tests` (one
/// case per test) build this value. Text goes in as it should be shown (a caller redacts first);
/// every piece is escaped here (`MarkupText`).
public struct JUnitDocument: Sendable, Equatable {
    public var name: String
    public var suites: [Suite]

    public init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    public struct Suite: Sendable, Equatable {
        public var name: String
        public var cases: [Case]
        /// Seconds; nil: the sum of the cases' times.
        public var time: Double?

        public init(name: String, cases: [Case], time: Double? = nil) {
            self.name = name
            self.cases = cases
            self.time = time
        }

        var seconds: Double { time ?? cases.reduce(0) { $0 + $1.time } }
    }

    public struct Case: Sendable, Equatable {
        public var classname: String
        public var name: String
        /// Seconds.
        public var time: Double
        public var outcome: Outcome
        /// Where the first failure happened.
        public var file: String?
        public var line: Int?
        /// What the case printed.
        public var systemOut: String?

        public init(classname: String, name: String, time: Double, outcome: Outcome, file: String? = nil, line: Int? = nil,
                    systemOut: String? = nil) {
            self.classname = classname
            self.name = name
            self.time = time
            self.outcome = outcome
            self.file = file
            self.line = line
            self.systemOut = systemOut
        }
    }

    public enum Outcome: Sendable, Equatable {
        case passed
        case skipped
        case failed([Failure])

        var isFailure: Bool { if case .failed = self { true } else { false } }
        var isSkipped: Bool { self == .skipped }
    }

    public struct Failure: Sendable, Equatable {
        /// One line, for the `message` attribute.
        public var message: String
        /// The element's text: a location and message, or the output's last lines.
        public var body: String

        public init(message: String, body: String) {
            self.message = message
            self.body = body
        }
    }

    public var xml: String {
        let cases = suites.flatMap(\.cases)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escape(name))\"" + Self.counts(cases) + " time=\"\(Self.seconds(suites.reduce(0) { $0 + $1.seconds }))\">\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escape(suite.name))\"" + Self.counts(suite.cases) + " time=\"\(Self.seconds(suite.seconds))\">\n"
            for testCase in suite.cases {
                xml += "    <testcase classname=\"\(escape(testCase.classname))\" name=\"\(escape(testCase.name))\" time=\"\(Self.seconds(testCase.time))\""
                if let file = testCase.file {
                    xml += " file=\"\(escape(file))\""
                    if let line = testCase.line { xml += " line=\"\(line)\"" }
                }
                var children = ""
                switch testCase.outcome {
                case .passed: break
                case .skipped: children += "      <skipped/>\n"
                case .failed(let failures):
                    for failure in failures.isEmpty ? [Failure(message: "failed", body: "failed")] : failures {
                        children += "      <failure message=\"\(escape(failure.message))\" type=\"failure\">\(escape(failure.body))</failure>\n"
                    }
                }
                if let output = testCase.systemOut, !output.isEmpty { children += "      <system-out>\(escape(output))</system-out>\n" }
                xml += children.isEmpty ? "/>\n" : ">\n" + children + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Writes the report atomically (a reader never sees half a file).
    public func write(to path: String) throws(AtomicFile.Failure) {
        try AtomicFile.write(xml, to: path)
    }

    private func escape(_ text: String) -> String { MarkupText.escape(text) }

    private static func counts(_ cases: [Case]) -> String {
        " tests=\"\(cases.count)\" failures=\"\(cases.filter(\.outcome.isFailure).count)\" skipped=\"\(cases.filter(\.outcome.isSkipped).count)\" errors=\"0\""
    }

    /// Seconds with three decimals, without Foundation's formatters.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + String(repeating: "0", count: fraction < 10 ? 2 : fraction < 100 ? 1 : 0) + "\(fraction)"
    }
}
