/// One test and how it ended.
public struct TestCaseResult: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable { case passed, failed, skipped }

    /// `Module.Class` for XCTest; `Swift Testing` (or the suite) for Swift Testing.
    public var suite: String
    public var name: String
    public var status: Status
    public var duration: Double?
    public var failures: [TestFailure]

    public init(suite: String, name: String, status: Status, duration: Double? = nil, failures: [TestFailure] = []) {
        self.suite = suite
        self.name = name
        self.status = status
        self.duration = duration
        self.failures = failures
    }

    /// `Suite.name`, as a lane prints a failing test.
    public var fullName: String { "\(suite).\(name)" }
}

/// Why a test failed: the assertion or issue with its place in the source, when the output gives it.
public struct TestFailure: Sendable, Equatable {
    public var file: String?
    public var line: Int?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
}

/// Every test of a run, in the order they finished.
public struct TestRunResult: Sendable, Equatable {
    public var cases: [TestCaseResult]

    public init(cases: [TestCaseResult] = []) { self.cases = cases }

    public var total: Int { cases.count }
    public var passedCount: Int { cases.filter { $0.status == .passed }.count }
    public var failedCount: Int { cases.filter { $0.status == .failed }.count }
    public var skippedCount: Int { cases.filter { $0.status == .skipped }.count }
    public var failedTests: [TestCaseResult] { cases.filter { $0.status == .failed } }
    public var succeeded: Bool { failedCount == 0 }

    /// `5 tests: 2 passed, 2 failed, 1 skipped`.
    public var summaryLine: String {
        "\(total) test\(total == 1 ? "" : "s"): \(passedCount) passed, \(failedCount) failed, \(skippedCount) skipped"
    }
}
