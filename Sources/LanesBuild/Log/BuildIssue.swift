/// The parts of a build a log shows, in the order they first appear.
public enum BuildPhase: String, Sendable, CaseIterable, Equatable {
    case resolve, compile, link, sign, archive, export, test
}

/// One error or warning found in a build log.
public struct BuildIssue: Sendable, Equatable {
    public enum Severity: String, Sendable, Equatable {
        case error, warning
    }

    /// What produced the issue; a lane prints it and later steps may branch on it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Swift, clang or Objective-C compiler diagnostics (and other `file: error:` lines of build tools).
        case compiler
        /// `ld` and `Undefined symbols`/`duplicate symbol` reports.
        case linker
        /// A run-script build phase that exited non-zero.
        case scriptPhase = "script-phase"
        /// `xcodebuild: error: Could not resolve package dependencies:` and its reason.
        case packageResolution = "package-resolution"
        /// A Swift macro or package plugin that must be trusted (enabled) before it can run.
        case macroTrust = "macro-trust"
        /// Provisioning profiles, certificates, capabilities.
        case signing
        /// `error: exportArchive: ...` and `** EXPORT FAILED **`.
        case export
        /// An XCTest assertion or a Swift Testing issue.
        case testFailure = "test-failure"
        /// A test process that crashed or exited on a signal.
        case testCrash = "test-crash"
        /// Anything else xcodebuild or swift reports as an error (a missing scheme, a failed command).
        case build
    }

    public var severity: Severity
    public var kind: Kind
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var message: String
    /// The Xcode target (`in target 'X'`), when the log says which.
    public var target: String?
    /// The test (`-[Module.Class testName]`, `Class.testName`, `name()`), for test issues.
    public var test: String?

    public init(severity: Severity, kind: Kind, file: String? = nil, line: Int? = nil, column: Int? = nil,
                message: String, target: String? = nil, test: String? = nil) {
        self.severity = severity
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.target = target
        self.test = test
    }

    /// `file:line:column`, as much of it as is known; nil without a file.
    public var location: String? {
        guard let file else { return nil }
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }

    /// One line, location first: `App/View.swift:12:5: error: cannot find 'x' in scope [App]`; a
    /// test's issue names the test as xcodebuild does (`error: -[Module.Class test] : message`).
    public var rendered: String {
        var text = location.map { $0 + ": " } ?? ""
        text += "\(severity.rawValue): "
        if let test, !message.contains(test) { text += "\(test) : " }
        text += message
        if let target { text += " [\(target)]" }
        return text
    }
}

/// What the summariser reports while it reads, so a step can show a live summary.
public enum BuildLogEvent: Sendable, Equatable {
    /// A phase seen for the first time.
    case phase(BuildPhase)
    case issue(BuildIssue)
    /// An xcodebuild result line (`BUILD SUCCEEDED`, `ARCHIVE FAILED`, ...) or Swift Testing's run result.
    case outcome(String)
}

/// What a whole log said.
public struct BuildLogSummary: Sendable, Equatable {
    /// Phases in the order they first appeared.
    public var phases: [BuildPhase] = []
    public var errorCount = 0
    public var warningCount = 0
    /// The first `issueLimit` errors (all of them are counted).
    public var errors: [BuildIssue] = []
    /// The first `issueLimit` warnings (all of them are counted).
    public var warnings: [BuildIssue] = []
    /// xcodebuild's result lines, without the asterisks: `ARCHIVE SUCCEEDED`, `EXPORT FAILED`.
    public var outcomes: [String] = []
    public var lineCount = 0
    public var byteCount = 0

    public init() {}

    public var hasErrors: Bool { errorCount > 0 }
}
