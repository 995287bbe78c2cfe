import Synchronization
import Testing
@testable import LanesRuntime
@testable import LanesPlatform

/// Issue 21: control characters from build logs and .ipa metadata never reach the terminal raw.
@Suite struct TerminalTextTests {
    @Test func escapeSequencesAreShownNotObeyed() {
        let title = "CFBundleName \u{1B}]0;owned\u{07}App\u{1B}[2J\u{9B}31m\u{7F}\r"
        let shown = TerminalText.visible(title)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(shown.debugDescription)")
        #expect(shown == "CFBundleName ^[]0;owned^GApp^[[2J\\u{9b}31m^?^M")
        #expect(TerminalText.visible("plain\ttext ✓") == "plain\ttext ✓")
    }

    @Test func aStepLogLineCannotSetTheWindowTitle() {
        let lines = LockedLines()
        let log = StepLog(redactor: Redactor()) { lines.append($0) }
        log.line("build \u{1B}]0;pwned\u{07} done")
        #expect(lines.all == ["build ^[]0;pwned^G done"])
        #expect(log.lastLines == ["build ^[]0;pwned^G done"])
    }
}

final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
