internal import LanesPlatform

/// Reads an xcodebuild or SwiftPM log as it streams and keeps what matters: phases, warning and error
/// counts, and every error with its location first. It never reports a warning as an error nor drops an
/// error: a failing run-script phase, a linker report or a package-resolution failure, which print no
/// `file: error:` line, become errors too, and a `** ... FAILED **` with no error before it becomes one.
///
/// Memory stays constant whatever the log's length: a line is looked at in the caller's buffer and
/// copied only when it holds an issue; at most `issueLimit` errors and warnings are kept (all are counted).
public struct BuildLogSummarizer: Sendable {
    public let issueLimit: Int
    private var summary = BuildLogSummary()
    private var seenPhases: Set<BuildPhase> = []

    /// The target named by the latest task line (`... (in target 'App' from project 'App')`).
    private var currentTarget: [UInt8] = []
    private var currentTargetName: String?

    /// A multi-line report still being read.
    private enum Pending: Sendable {
        case none
        /// `Undefined symbols` / `duplicate symbol`: the indented lines after it name the symbols and files.
        case linker(BuildIssue, symbols: [String])
        /// `Could not resolve package dependencies:`: the next non-empty line says why.
        case resolution(BuildIssue)
        /// `Command line invocation:`: the next line is the xcodebuild command, telling the action.
        case invocation
    }
    private var pending: Pending = .none

    /// xcodebuild's recap blocks repeat what failed; their tab-indented lines are not new errors.
    private enum Recap: Sendable { case none, buildCommands, testing }
    private var recap: Recap = .none

    /// Error messages already reported (bounded), so a recap line is not counted twice.
    private var reportedMessages: Set<String> = []
    /// Tests that already recorded an issue (bounded), so their `failed` line is not a second error.
    private var testsWithIssues: Set<String> = []
    /// The unfinished last line of the previous chunk given to `consume(bytes:)`.
    private var carry: [UInt8] = []

    /// Lines longer than this are judged by their first `maximumLineLength` bytes.
    public static let maximumLineLength = 1 << 20

    public init(issueLimit: Int = 1000) {
        self.issueLimit = issueLimit
    }

    // MARK: Feeding

    /// One line of output, without its newline (what `ProcessRunning` hands to `onLine`).
    public mutating func consume(line: String, report: (BuildLogEvent) -> Void = { _ in }) {
        var line = line
        summary.byteCount += line.utf8.count + 1
        line.withUTF8 { process(ByteLine(bytes: trimmedCarriageReturn($0)), report: report) }
    }

    /// Raw output in chunks of any size; lines may span chunks.
    public mutating func consume(bytes chunk: UnsafeRawBufferPointer, report: (BuildLogEvent) -> Void = { _ in }) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), !chunk.isEmpty else { return }
        summary.byteCount += chunk.count
        let bytes = UnsafeBufferPointer(start: base, count: chunk.count)
        var start = 0
        while start < bytes.count {
            guard let hit = memchr(base + start, 0x0A, bytes.count - start) else { break }
            let end = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            if carry.isEmpty {
                process(ByteLine(bytes: trimmedCarriageReturn(UnsafeBufferPointer(rebasing: bytes[start..<end]))), report: report)
            } else {
                appendToCarry(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                let line = carry
                carry.removeAll(keepingCapacity: true)
                line.withUnsafeBufferPointer { process(ByteLine(bytes: trimmedCarriageReturn($0)), report: report) }
            }
            start = end + 1
        }
        if start < bytes.count { appendToCarry(UnsafeBufferPointer(rebasing: bytes[start...])) }
    }

    public mutating func consume(bytes: [UInt8], report: (BuildLogEvent) -> Void = { _ in }) {
        bytes.withUnsafeBytes { consume(bytes: $0, report: report) }
    }

    /// Ends the log (a last line without a newline counts) and returns the summary.
    public mutating func finish(report: (BuildLogEvent) -> Void = { _ in }) -> BuildLogSummary {
        if !carry.isEmpty {
            let line = carry
            carry.removeAll()
            line.withUnsafeBufferPointer { process(ByteLine(bytes: trimmedCarriageReturn($0)), report: report) }
        }
        flushPending(report: report)
        return summary
    }

    /// The summary so far (for a live display).
    public var current: BuildLogSummary { summary }

    private mutating func appendToCarry(_ bytes: UnsafeBufferPointer<UInt8>) {
        let room = Self.maximumLineLength - carry.count
        guard room > 0 else { return }
        carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<min(bytes.count, room)]))
    }

    private func trimmedCarriageReturn(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var count = min(bytes.count, Self.maximumLineLength)
        if count > 0, bytes[count - 1] == 0x0D { count -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[..<count])
    }

    // MARK: One line

    private mutating func process(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        summary.lineCount += 1
        if case .none = pending {} else if continuePending(line, report: report) { return }
        guard !line.isEmpty else { return }
        let first = line[0]
        if first == 0x20 || first == 0x09 {   // indented: commands, code excerpts, recap entries
            if first == 0x09, recap != .none { recapLine(line, report: report) }
            return
        }
        recap = .none
        if first >= 0x80 { swiftTestingLine(line, report: report); return }
        // Swift 6 source excerpts: `12 |     code` (narrower numbers are indented and skipped above).
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), let bar = line.firstIndex(of: " | "), bar < 8 { return }
        if first == 0x2A, line.hasPrefix("** ") { outcomeLine(line, report: report); return }
        if taskOrMarkerLine(line, report: report) { return }
        diagnosticLine(line, report: report)
    }

    /// Lines that start with a fixed word: build tasks (phases, targets) and reports without `error:`.
    private mutating func taskOrMarkerLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) -> Bool {
        switch line[0] {
        case UInt8(ascii: "C"):
            if line.hasPrefix("Command PhaseScriptExecution failed") {
                record(BuildIssue(severity: .error, kind: .scriptPhase, message: line.string, target: currentTargetName), report: report)
                return true
            }
            if line.hasPrefix("Command "), line.contains(" failed with a nonzero exit code") {
                // The compiler or linker printed its own errors; only a silent failure needs reporting.
                if line.hasPrefix("Command CodeSign ") {
                    record(BuildIssue(severity: .error, kind: .signing, message: line.string, target: currentTargetName), report: report)
                } else if summary.errorCount == 0 {
                    record(BuildIssue(severity: .error, kind: .build, message: line.string, target: currentTargetName), report: report)
                }
                return true
            }
            if line.hasPrefix("Command line invocation:") { pending = .invocation; return true }
            if line.hasPrefix("Code Sign error:") || line.hasPrefix("Code signing is required") {
                record(BuildIssue(severity: .error, kind: .signing, message: line.string, target: currentTargetName), report: report)
                return true
            }
            if line.hasPrefix("CompileSwift") || line.hasPrefix("CompileC ") || line.hasPrefix("CompileAssetCatalog")
                || line.hasPrefix("CompileStoryboard") || line.hasPrefix("CompileXIB") || line.hasPrefix("Compiling ") {
                enter(.compile, report: report)
            } else if line.hasPrefix("CodeSign ") {
                enter(.sign, report: report)
            } else if line.hasPrefix("CreateUniversalBinary ") {
                enter(.link, report: report)
            }
        case UInt8(ascii: "S"):
            if line.hasPrefix("SwiftCompile ") || line.hasPrefix("SwiftDriver") || line.hasPrefix("SwiftEmitModule") {
                enter(.compile, report: report)
            } else if line.hasPrefix("Signing Identity:") {
                enter(.sign, report: report)
            }
        case UInt8(ascii: "L"):
            if line.hasPrefix("Ld ") || line.hasPrefix("Linking ") { enter(.link, report: report) }
        case UInt8(ascii: "B"):
            if line.hasPrefix("Building for ") { enter(.compile, report: report) }
        case UInt8(ascii: "["):
            // SwiftPM: `[12/40] Compiling Module File.swift`, `[40/40] Linking tool`.
            if let close = line.firstIndex(of: "] ") {
                if line.hasPrefix("Compiling ", at: close + 2) || line.hasPrefix("Emitting module", at: close + 2) {
                    enter(.compile, report: report)
                } else if line.hasPrefix("Linking ", at: close + 2) {
                    enter(.link, report: report)
                }
            }
        case UInt8(ascii: "F"):
            if line.hasPrefix("Fetching ") || line.hasPrefix("Fetched ") { enter(.resolve, report: report) }
        case UInt8(ascii: "R"):
            if line.hasPrefix("Resolve Package Graph") || line.hasPrefix("Resolved source packages") {
                enter(.resolve, report: report)
            } else if line.hasPrefix("Restarting after unexpected exit, crash, or test timeout") {
                enter(.test, report: report)
                record(BuildIssue(severity: .error, kind: .testCrash, message: line.string, test: testName(afterIn: line)), report: report)
                return true
            }
        case UInt8(ascii: "T"):
            if line.hasPrefix("Test Case '") { testCaseLine(line, report: report); return true }
            if line.hasPrefix("Test Suite '") || line.hasPrefix("Testing started") || line.hasPrefix("Test session results") {
                enter(.test, report: report)
                return true
            }
            if line.hasPrefix("Testing failed:") { recap = .testing; return true }
            if line.hasPrefix("The following build commands failed:") { recap = .buildCommands; return true }
        case UInt8(ascii: "E"):
            if line.hasPrefix("Exported ") { enter(.export, report: report); return true }
        case UInt8(ascii: "U"):
            if line.hasPrefix("Undefined symbols for architecture") {
                enter(.link, report: report)
                startLinker(line.string, report: report)
                return true
            }
        case UInt8(ascii: "d"):
            if line.hasPrefix("duplicate symbol ") {
                enter(.link, report: report)
                startLinker(line.string, report: report)
                return true
            }
        case UInt8(ascii: "l"):
            if line.hasPrefix("ld: ") {
                enter(.link, report: report)
                linkerLine(line, report: report)
                return true
            }
        case UInt8(ascii: "N"):
            if line.hasPrefix("No profile matching ") || line.hasPrefix("No profiles for ") || line.hasPrefix("No signing certificate ") {
                record(BuildIssue(severity: .error, kind: .signing, message: line.string, target: currentTargetName), report: report)
                return true
            }
        case UInt8(ascii: "P"):
            if line.hasPrefix("Provisioning profile "), line.contains(" doesn't ") {
                record(BuildIssue(severity: .error, kind: .signing, message: line.string, target: currentTargetName), report: report)
                return true
            }
        case UInt8(ascii: "*"):
            if line.hasPrefix("*** Terminating app due to uncaught exception") {
                record(BuildIssue(severity: .error, kind: .testCrash, message: line.string), report: report)
                return true
            }
        default:
            break
        }
        trackTarget(line)
        return false
    }

    // MARK: Diagnostics (`location: error: message`)

    private mutating func diagnosticLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        // `error: ...`, `warning: ...`, `fatal error: ...` with no location.
        if line.hasPrefix("error: ") { diagnostic(.error, line, locationEnd: nil, messageStart: 7, report: report); return }
        if line.hasPrefix("fatal error: ") { diagnostic(.error, line, locationEnd: nil, messageStart: 13, report: report); return }
        if line.hasPrefix("warning: ") { diagnostic(.warning, line, locationEnd: nil, messageStart: 9, report: report); return }
        if line.hasPrefix("xcodebuild: error: ") { xcodebuildError(line, report: report); return }
        // `LOCATION: error: message`: every ": " followed by one of the words.
        var position = 0
        while let colon = line.firstIndex(of: ": ", from: position) {
            let word = colon + 2
            if line.hasPrefix("error: ", at: word) {
                diagnostic(.error, line, locationEnd: colon, messageStart: word + 7, report: report); return
            }
            if line.hasPrefix("fatal error: ", at: word) {
                diagnostic(.error, line, locationEnd: colon, messageStart: word + 13, report: report); return
            }
            if line.hasPrefix("warning: ", at: word) {
                diagnostic(.warning, line, locationEnd: colon, messageStart: word + 9, report: report); return
            }
            if line.hasPrefix("Fatal error", at: word) {   // Swift runtime trap: `File.swift:12: Fatal error: ...`
                var issue = located(line, locationEnd: colon)
                issue.kind = .testCrash
                issue.message = line.string(from: word)
                record(issue, report: report)
                return
            }
            position = word
        }
    }

    private mutating func diagnostic(_ severity: BuildIssue.Severity, _ line: ByteLine, locationEnd: Int?,
                                     messageStart: Int, report: (BuildLogEvent) -> Void) {
        var issue = locationEnd.map { located(line, locationEnd: $0) } ?? BuildIssue(severity: severity, kind: .build, message: "")
        issue.severity = severity
        let start = min(messageStart, line.count)
        var end = line.count
        // `message (in target 'App' from project 'App')`: the target goes to its own field.
        if line.hasSuffix("')"), let open = line.lastIndex(of: " (in target '"), open >= start,
           let close = line.firstIndex(of: "'", from: open + 13) {
            issue.target = line.string((open + 13)..<close)
            end = open
        } else {
            issue.target = currentTargetName
        }
        let message = ByteLine(bytes: UnsafeBufferPointer(rebasing: line.bytes[start..<end]))
        let fromClang = locationEnd == 5 && line.hasPrefix("clang")
        let fromLinker = locationEnd == 2 && line.hasPrefix("ld")
        issue.kind = severity == .warning
            ? (fromLinker ? .linker : issue.file != nil && !fromClang ? .compiler : .build)
            : classify(message, fromClang: fromClang, fromLinker: fromLinker, hasLocation: issue.file != nil)
        if fromClang || fromLinker { issue.file = nil }
        if issue.kind == .testFailure, let separator = message.firstIndex(of: " : ") {
            issue.test = message.string(0..<separator)
            issue.message = message.string(from: separator + 3)
            enter(.test, report: report)
        } else {
            issue.message = message.string
            if issue.kind == .export { enter(.export, report: report) }
            if issue.kind == .linker { enter(.link, report: report) }
        }
        // clang's closing line of a linker report repeats what the report said.
        if issue.kind == .linker, fromClang, lastErrorKind == .linker, message.hasPrefix("linker command failed") {
            return
        }
        if issue.file?.hasPrefix("<") == true { issue.file = nil; issue.line = nil; issue.column = nil }   // `<unknown>:0`, `<EXPR>:0`
        record(issue, report: report)
    }

    private var lastErrorKind: BuildIssue.Kind?

    /// What an error message is about. Signing and trust problems come as ordinary `error:` lines.
    private func classify(_ message: ByteLine, fromClang: Bool, fromLinker: Bool, hasLocation: Bool) -> BuildIssue.Kind {
        if fromLinker { return .linker }
        if fromClang { return message.hasPrefix("linker command failed") ? .linker : .compiler }
        if message.hasPrefix("exportArchive") { return .export }
        if message.hasPrefix("-[") || message.hasPrefix("+[") { return .testFailure }
        if hasLocation, Self.looksLikeXCTestName(message) { return .testFailure }
        if message.hasPrefix("Exited with unexpected signal") || message.hasPrefix("Exited with signal") { return .testCrash }
        if message.contains("must be enabled before it can be used") || message.hasPrefix("Macro \"") && message.contains("trust") {
            return .macroTrust
        }
        for marker in Self.signingMarkers where message.contains(marker) { return .signing }
        return hasLocation ? .compiler : .build
    }

    static let signingMarkers: [StaticString] = [
        "No profiles for '", "No profile for team", "No signing certificate", "requires a provisioning profile",
        "Provisioning profile \"", "doesn't include the", "doesn't support the", "doesn't match the entitlements",
        "Code signing is required", "requires a development team", "No Account for Team", "No certificate for team",
        "code signing identity", "Signing certificate", "errSecInternalComponent",
    ]

    /// Linux XCTest writes `File.swift:12: error: ClassTests.testName : XCTAssertEqual failed: ...`:
    /// a dotted name with no space, then ` : `.
    static func looksLikeXCTestName(_ message: ByteLine) -> Bool {
        guard let separator = message.firstIndex(of: " : "), separator > 0 else { return false }
        let first = message[0]
        guard first == UInt8(ascii: "_") || (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") else { return false }
        var dotted = false
        for index in 0..<separator {
            if message[index] == UInt8(ascii: " ") { return false }
            if message[index] == UInt8(ascii: ".") { dotted = true }
        }
        return dotted
    }

    /// A `path[:line[:column]]` location ending at `locationEnd`.
    private func located(_ line: ByteLine, locationEnd: Int) -> BuildIssue {
        var end = locationEnd
        var numbers: [Int] = []
        // Up to two trailing `:digits` groups are line and column.
        while numbers.count < 2, let colon = lastColon(line, before: end), colon + 1 < end,
              let number = decimal(line, colon + 1..<end) {
            numbers.insert(number, at: 0)
            end = colon
        }
        let file = line.string(0..<end)
        return BuildIssue(severity: .error, kind: .compiler, file: file, line: numbers.first,
                          column: numbers.count > 1 ? numbers[1] : nil, message: "")
    }

    private func lastColon(_ line: ByteLine, before end: Int) -> Int? {
        var index = end - 1
        while index >= 0 {
            if line[index] == UInt8(ascii: ":") { return index }
            if line[index] < UInt8(ascii: "0") || line[index] > UInt8(ascii: "9") { return nil }
            index -= 1
        }
        return nil
    }

    private func decimal(_ line: ByteLine, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count < 10 else { return nil }
        var value = 0
        for index in range {
            let byte = line[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    // MARK: xcodebuild's own errors

    private mutating func xcodebuildError(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        let message = line.string(from: 19)
        if message.hasPrefix("Could not resolve package dependencies") {
            enter(.resolve, report: report)
            flushPending(report: report)
            pending = .resolution(BuildIssue(severity: .error, kind: .packageResolution, message: message))
            return
        }
        let kind = classify(ByteLine(bytes: UnsafeBufferPointer(rebasing: line.bytes[19...])),
                            fromClang: false, fromLinker: false, hasLocation: false)
        record(BuildIssue(severity: .error, kind: kind, message: message), report: report)
    }

    // MARK: Linker reports

    private mutating func startLinker(_ message: String, report: (BuildLogEvent) -> Void) {
        flushPending(report: report)
        pending = .linker(BuildIssue(severity: .error, kind: .linker, message: message, target: currentTargetName), symbols: [])
    }

    private mutating func linkerLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        if line.hasPrefix("ld: warning: ") {
            record(BuildIssue(severity: .warning, kind: .linker, message: line.string(from: 13), target: currentTargetName), report: report)
            return
        }
        if line.hasPrefix("ld: Undefined symbols") {   // the linker of Xcode 15 and later
            startLinker(line.string(from: 4), report: report)
            return
        }
        record(BuildIssue(severity: .error, kind: .linker, message: line.string(from: 4), target: currentTargetName), report: report)
    }

    /// Feeds a line to the report being read; true when the line belonged to it.
    private mutating func continuePending(_ line: ByteLine, report: (BuildLogEvent) -> Void) -> Bool {
        switch pending {
        case .none:
            return false
        case .invocation:
            pending = .none
            if line.contains(" -exportArchive") { enter(.export, report: report) }
            else if line.hasSuffix(" archive") || line.contains(" archive ") { enter(.archive, report: report) }
            else if line.hasSuffix(" test") || line.contains(" test ") { enter(.test, report: report) }
            return true
        case .resolution(var issue):
            guard !line.isEmpty else { return true }
            var reason = line.string
            while reason.first == " " || reason.first == "\t" { reason.removeFirst() }
            issue.message += " " + reason
            pending = .none
            record(issue, report: report)
            return true
        case .linker(let issue, var symbols):
            if !line.isEmpty, line[0] == 0x20 || line[0] == 0x09 {
                // `  "_foo", referenced from:` (classic) or `  _foo, referenced from:` (Xcode 15+), then users.
                if let end = line.firstIndex(of: ", referenced from:") {
                    var start = 0
                    while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
                    var symbol = line.string(start..<end)
                    if symbol.hasPrefix("\""), symbol.hasSuffix("\""), symbol.count >= 2 { symbol = String(symbol.dropFirst().dropLast()) }
                    if symbols.count < 50 { symbols.append(symbol) }
                    pending = .linker(issue, symbols: symbols)
                } else if issue.message.hasPrefix("duplicate symbol"), symbols.count < 50 {
                    var start = 0
                    while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
                    symbols.append(line.string(from: start))
                    pending = .linker(issue, symbols: symbols)
                }
                return true
            }
            if line.hasPrefix("ld: "), !line.hasPrefix("ld: warning:") {
                // `ld: symbol(s) not found for architecture arm64` / `ld: 1 duplicate symbols`: the report's end.
                var finished = issue
                finished.message += symbols.isEmpty ? "" : " " + symbols.joined(separator: ", ")
                finished.message += " (ld: \(line.string(from: 4)))"
                pending = .none
                record(finished, report: report)
                return true
            }
            flushPending(report: report)
            return false
        }
    }

    private mutating func flushPending(report: (BuildLogEvent) -> Void) {
        switch pending {
        case .none, .invocation: break
        case .resolution(let issue): record(issue, report: report)
        case .linker(var issue, let symbols):
            if !symbols.isEmpty { issue.message += " " + symbols.joined(separator: ", ") }
            record(issue, report: report)
        }
        pending = .none
    }

    // MARK: Tests

    private mutating func testCaseLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        enter(.test, report: report)
        // `Test Case '-[Module.Class test]' failed (0.002 seconds).`
        guard let close = line.firstIndex(of: "' ", from: 11), line.hasPrefix("failed", at: close + 2) else { return }
        let name = line.string(11..<close)
        if testsWithIssues.contains(name) { return }
        record(BuildIssue(severity: .error, kind: .testFailure, message: "\(name) failed", test: name), report: report)
    }

    /// Swift Testing's lines start with a symbol: `✘ Test name() recorded an issue at File.swift:12:5: message`.
    private mutating func swiftTestingLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        guard let testWord = line.firstIndex(of: " Test "), testWord < 12 else {
            if line.firstIndex(of: " Suite ").map({ $0 < 12 }) == true { enter(.test, report: report) }
            return
        }
        enter(.test, report: report)
        let nameStart = testWord + 6
        if line.hasPrefix("run with ", at: nameStart) {
            // `Test run with 3 tests failed after 0.004 seconds with 1 issue.` -> `Test run with 3 tests failed`.
            if let verdict = line.firstIndex(of: " passed", from: nameStart) ?? line.firstIndex(of: " failed", from: nameStart) {
                let result = line.string(nameStart..<(line.firstIndex(of: " after ", from: verdict) ?? line.count))
                summary.outcomes.append("Test " + result)
                report(.outcome("Test " + result))
            }
            return
        }
        if let issueAt = line.firstIndex(of: " recorded an issue", from: nameStart) {
            let name = line.string(nameStart..<issueAt)
            var issue = BuildIssue(severity: .error, kind: .testFailure, message: "", test: name)
            // `... recorded an issue [with N arguments ...] at File.swift:12:5: message`
            var search = issueAt
            var found = false
            while let at = line.firstIndex(of: " at ", from: search) {
                let locationStart = at + 4
                if let colon = line.firstIndex(of: ": ", from: locationStart) {
                    let candidate = located(ByteLine(bytes: UnsafeBufferPointer(rebasing: line.bytes[locationStart..<colon])), locationEnd: colon - locationStart)
                    if candidate.line != nil, !(candidate.file ?? "").contains(" ") {
                        issue.file = candidate.file
                        issue.line = candidate.line
                        issue.column = candidate.column
                        issue.message = line.string(from: colon + 2)
                        found = true
                        break
                    }
                }
                search = at + 1
            }
            if !found { issue.message = line.string(from: issueAt + 1) }
            record(issue, report: report)
            return
        }
        // `✘ Test name() failed after 0.001 seconds with 1 issue.`: an error only when no issue preceded.
        if let failed = line.firstIndex(of: " failed after ", from: nameStart) {
            // `✘ Test ristretto(grams:) with 2 test cases failed after ...`: the name ends before ` with `.
            let name = line.string(nameStart..<(line.firstIndex(of: " with ", from: nameStart).map { min($0, failed) } ?? failed))
            if !testsWithIssues.contains(name) {
                record(BuildIssue(severity: .error, kind: .testFailure, message: "\(name) failed", test: name), report: report)
            }
        }
    }

    /// `... in ClassTests.testName(); summary will ...` -> `ClassTests.testName()`.
    private func testName(afterIn line: ByteLine) -> String? {
        guard let start = line.firstIndex(of: " in ") else { return nil }
        let end = line.firstIndex(of: ";", from: start) ?? line.count
        return line.string(start + 4..<end)
    }

    // MARK: Recaps and results

    private mutating func recapLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        let text = line.string(from: 1)
        switch recap {
        case .none: return
        case .buildCommands:
            // A failed command with no error before it (a silent tool): never let the build look clean.
            if summary.errorCount == 0 {
                record(BuildIssue(severity: .error, kind: .build, message: "build command failed: " + text), report: report)
            }
        case .testing:
            guard !reportedMessages.contains(text) else { return }
            let kind: BuildIssue.Kind = text.contains("encountered an error") || text.contains("Crash") || text.contains("crash")
                ? .testCrash
                : text.contains("must be enabled before it can be used") ? .macroTrust : .testFailure
            if kind == .testFailure, summary.errorCount > 0 { return }   // a recap of assertions already reported
            record(BuildIssue(severity: .error, kind: kind, message: text), report: report)
        }
    }

    private mutating func outcomeLine(_ line: ByteLine, report: (BuildLogEvent) -> Void) {
        guard line.count > 6, line.hasSuffix(" **") else { return }
        let outcome = line.string(3..<(line.count - 3))
        summary.outcomes.append(outcome)
        report(.outcome(outcome))
        if outcome.hasPrefix("ARCHIVE") { enter(.archive, report: report) }
        if outcome.hasPrefix("EXPORT") { enter(.export, report: report) }
        if outcome.hasPrefix("TEST") { enter(.test, report: report) }
        guard outcome.hasSuffix("FAILED") else { return }
        if outcome.hasPrefix("EXPORT"), lastExportError == nil {
            record(BuildIssue(severity: .error, kind: .export, message: "xcodebuild reported ** \(outcome) ** without an error line"), report: report)
        } else if summary.errorCount == 0 {
            record(BuildIssue(severity: .error, kind: .build, message: "xcodebuild reported ** \(outcome) ** without an error line"), report: report)
        }
    }

    private var lastExportError: BuildIssue?

    // MARK: Bookkeeping

    private mutating func enter(_ phase: BuildPhase, report: (BuildLogEvent) -> Void) {
        guard seenPhases.insert(phase).inserted else { return }
        summary.phases.append(phase)
        report(.phase(phase))
    }

    /// Remembers the target of task lines that end in `(in target 'X' from project 'Y')`.
    private mutating func trackTarget(_ line: ByteLine) {
        guard line.hasSuffix("')"), let open = line.lastIndex(of: "(in target '") else { return }
        let start = open + 12
        guard let close = line.firstIndex(of: "'", from: start) else { return }
        if !line.elementsEqual(currentTarget, in: start..<close) {
            currentTarget = Array(UnsafeBufferPointer(rebasing: line.bytes[start..<close]))
            currentTargetName = line.string(start..<close)
        }
    }

    private mutating func record(_ issue: BuildIssue, report: (BuildLogEvent) -> Void) {
        switch issue.severity {
        case .warning:
            summary.warningCount += 1
            if summary.warnings.count < issueLimit { summary.warnings.append(issue) }
        case .error:
            summary.errorCount += 1
            lastErrorKind = issue.kind
            if issue.kind == .export { lastExportError = issue }
            if summary.errors.count < issueLimit { summary.errors.append(issue) }
            if reportedMessages.count < issueLimit { reportedMessages.insert(issue.message) }
            if let test = issue.test {
                if testsWithIssues.count >= 4096 { testsWithIssues.removeAll(keepingCapacity: true) }
                testsWithIssues.insert(test)
            }
        }
        report(.issue(issue))
    }
}
