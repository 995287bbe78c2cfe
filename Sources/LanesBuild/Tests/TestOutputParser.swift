/// Turns XCTest and Swift Testing output (from `swift test` on Linux or macOS, or `xcodebuild test`)
/// into one result per test. Feed it every line; `finish()` also fails tests that started and never
/// ended, which is how a crashed test process shows.
public struct TestOutputParser: Sendable {
    /// The suite name given to Swift Testing tests, whose output does not name their suite.
    public static let swiftTestingSuite = "Swift Testing"

    private var result = TestRunResult()
    /// Tests started and not yet finished, with failures recorded so far.
    private var running: [String: [TestFailure]] = [:]
    private var runningOrder: [String] = []
    private var lastStarted: String?

    public init() {}

    public mutating func consume(line rawLine: String) {
        var line = Substring(rawLine)
        if line.last == "\r" { line = line.dropLast() }
        guard let first = line.utf8.first else { return }
        if first >= 0x80 { swiftTesting(line); return }
        if line.hasPrefix("Test Case '") { xctestCase(line); return }
        if line.hasPrefix("Restarting after unexpected exit, crash, or test timeout in "), let name = lastStarted {
            fail(name, TestFailure(message: String(line)))
            finishCase(name, status: .failed, duration: nil)
            return
        }
        if let failure = xctestAssertion(line) { fail(failure.test, failure.failure); return }
        // A Swift runtime trap in the running test: `File.swift:12: Fatal error: Index out of range`.
        if let name = lastStarted, running[name] != nil, let fatal = line.firstRange(of: ": Fatal error") {
            let (file, lineNumber) = Self.fileAndLine(line[..<fatal.lowerBound])
            fail(name, TestFailure(file: file, line: lineNumber, message: String(line[line.index(fatal.lowerBound, offsetBy: 2)...])))
        }
    }

    /// The result; tests still running at the end failed (their process crashed or was killed).
    public mutating func finish() -> TestRunResult {
        for name in runningOrder where running[name] != nil {
            fail(name, TestFailure(message: "started but never finished: the test process crashed or was stopped"))
            finishCase(name, status: .failed, duration: nil)
        }
        return result
    }

    // MARK: XCTest

    /// `Test Case '-[Module.Class test]' passed (0.002 seconds).` (Linux: `'Class.test'`, no final dot).
    private mutating func xctestCase(_ line: Substring) {
        let afterQuote = line.dropFirst("Test Case '".count)
        guard let close = afterQuote.firstRange(of: "' ") else { return }
        let name = String(afterQuote[..<close.lowerBound])
        let rest = afterQuote[close.upperBound...]
        if rest.hasPrefix("started") {
            if running[name] == nil { runningOrder.append(name) }
            running[name] = running[name] ?? []
            lastStarted = name
            return
        }
        let status: TestCaseResult.Status
        if rest.hasPrefix("passed") { status = .passed }
        else if rest.hasPrefix("failed") { status = .failed }
        else if rest.hasPrefix("skipped") { status = .skipped }
        else { return }
        var duration: Double?
        if let open = rest.firstIndex(of: "("), let space = rest[open...].firstIndex(of: " ") {
            duration = Double(rest[rest.index(after: open)..<space])
        }
        finishCase(name, status: status, duration: duration)
    }

    /// `File.swift:27: error: -[Module.Class test] : XCTAssertEqual failed: ...` (or `Class.test : ...`).
    private func xctestAssertion(_ line: Substring) -> (test: String, failure: TestFailure)? {
        guard let marker = line.firstRange(of: ": error: ") else { return nil }
        let message = line[marker.upperBound...]
        guard let separator = message.firstRange(of: " : ") else { return nil }
        let test = message[..<separator.lowerBound]
        let isObjCName = test.hasPrefix("-[") || test.hasPrefix("+[")
        guard isObjCName || (test.contains(".") && !test.contains(" ")) else { return nil }
        let (file, lineNumber) = Self.fileAndLine(line[..<marker.lowerBound])
        return (String(test), TestFailure(file: file, line: lineNumber, message: String(message[separator.upperBound...])))
    }

    /// `path:12` -> (`path`, 12); `<EXPR>:0` and `<unknown>:0` -> (nil, nil).
    static func fileAndLine(_ location: Substring) -> (String?, Int?) {
        guard !location.hasPrefix("<") else { return (nil, nil) }
        var path = location
        var numbers: [Int] = []
        while numbers.count < 2, let colon = path.lastIndex(of: ":"), let number = Int(path[path.index(after: colon)...]) {
            numbers.insert(number, at: 0)
            path = path[..<colon]
        }
        return (String(path), numbers.first)
    }

    // MARK: Swift Testing

    /// `✔ Test name() passed after ...`, `✘ Test name() recorded an issue at F.swift:5:25: ...`,
    /// `✘ Test name() failed after ...`, `➜ Test name() skipped: "why"` (or Xcode's SF Symbols glyphs).
    private mutating func swiftTesting(_ line: Substring) {
        guard let word = line.firstRange(of: " Test "), line.distance(from: line.startIndex, to: word.lowerBound) < 12 else { return }
        let text = line[word.upperBound...]
        if text.hasPrefix("run ") || text.hasPrefix("case ") { return }
        if let issue = text.firstRange(of: " recorded an issue") {
            let name = String(text[..<issue.lowerBound])
            start(name)
            let after = text[issue.upperBound...]
            var failure = TestFailure(message: String(after.drop(while: { $0 == " " })))
            var search = after.startIndex
            while let at = after[search...].firstRange(of: " at ") {
                let locationAndMessage = after[at.upperBound...]
                if let colon = locationAndMessage.firstRange(of: ": ") {
                    let (file, lineNumber) = Self.fileAndLine(locationAndMessage[..<colon.lowerBound])
                    if let file, lineNumber != nil, !file.contains(" ") {
                        failure = TestFailure(file: file, line: lineNumber, message: String(locationAndMessage[colon.upperBound...]))
                        break
                    }
                }
                search = after.index(after: at.lowerBound)
            }
            fail(name, failure)
            return
        }
        for (marker, status) in [(" passed after ", TestCaseResult.Status.passed), (" failed after ", .failed), (" skipped", .skipped)] {
            guard let range = text.firstRange(of: marker) else { continue }
            var name = text[..<range.lowerBound]
            if let with = name.firstRange(of: " with ") { name = name[..<with.lowerBound] }
            var duration: Double?
            if status != .skipped {
                let number = text[range.upperBound...].prefix(while: { $0.isNumber || $0 == "." })
                duration = Double(number)
            }
            finishCase(String(name), status: status, duration: duration)
            return
        }
        if let started = text.firstRange(of: " started") {
            start(String(text[..<started.lowerBound]))
        }
    }

    // MARK: Bookkeeping

    private mutating func start(_ name: String) {
        if running[name] == nil {
            running[name] = []
            runningOrder.append(name)
        }
        lastStarted = name
    }

    private mutating func fail(_ name: String, _ failure: TestFailure) {
        if running[name] == nil { runningOrder.append(name) }
        running[name, default: []].append(failure)
    }

    private mutating func finishCase(_ name: String, status: TestCaseResult.Status, duration: Double?) {
        let failures = running.removeValue(forKey: name) ?? []
        if let index = runningOrder.firstIndex(of: name) { runningOrder.remove(at: index) }
        let (suite, shortName) = Self.split(name)
        var final = status
        if !failures.isEmpty, status == .passed { final = .failed }
        result.cases.append(TestCaseResult(suite: suite, name: shortName, status: final, duration: duration, failures: failures))
    }

    /// `-[Module.Class test]` -> (`Module.Class`, `test`); `Class.test` -> (`Class`, `test`);
    /// `name()` -> (`Swift Testing`, `name()`).
    static func split(_ name: String) -> (String, String) {
        if name.hasPrefix("-[") || name.hasPrefix("+["), name.hasSuffix("]"), let space = name.firstIndex(of: " ") {
            return (String(name[name.index(name.startIndex, offsetBy: 2)..<space]),
                    String(name[name.index(after: space)..<name.index(before: name.endIndex)]))
        }
        if !name.contains("("), let dot = name.lastIndex(of: ".") {
            return (String(name[..<dot]), String(name[name.index(after: dot)...]))
        }
        return (swiftTestingSuite, name)
    }
}
