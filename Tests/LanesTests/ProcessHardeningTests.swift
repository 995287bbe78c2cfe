import Synchronization
import Testing
@testable import LanesRuntime
import Foundation
import LanesPlatform
import LanesTestSupport

/// Findings 13 and 14 of issue 10: nothing a step started outlives it when the lane is cancelled,
/// and output lines of any length keep the real exit status.
@Suite(.timeLimit(.minutes(3))) struct ProcessHardeningTests {
    @Test func aLineLongerThanAnyBufferKeepsTheExitStatusAndAllItsBytes() async throws {
        let lines = LineCollector()
        let outcome = try await SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current).run(
            ProcessRequest(["sh", "-c", "head -c 300000 /dev/zero | tr '\\\\0' x; echo; echo after; exit 3"])
        ) { lines.append($0) }
        #expect(outcome.termination == .exited(3))
        let collected = lines.lines
        #expect(collected.last == "after")
        #expect(collected.dropLast().joined().count == 300_000)
        #expect(collected.count > 2, "the long line came in pieces")
    }

    @Test func cancellingAStepEndsItsGrandchildren() async throws {
        let grandchild = Mutex<pid_t?>(nil)
        let runner = SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current)
        let task = Task {
            try await runner.run(ProcessRequest(["sh", "-c", "sleep 60 & echo $!; wait"])) { line in
                grandchild.withLock { $0 = pid_t(line) }
            }
        }
        var waited = 0
        while grandchild.withLock({ $0 }) == nil, waited < 100 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let pid = try #require(grandchild.withLock { $0 })
        #expect(isRunning(pid))
        task.cancel()
        _ = try? await task.value
        var checks = 0
        while isRunning(pid), checks < 100 {
            try await Task.sleep(for: .milliseconds(50))
            checks += 1
        }
        #expect(!isRunning(pid), "sleep \(pid) outlived the cancelled step")
    }

    /// Alive and not a zombie (an orphan may wait to be reaped by a container's init).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfProcFile: "/proc/\(pid)/stat") else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}

@Suite(.timeLimit(.minutes(3))) struct LineSplitterTests {
    /// Feeds `text` in pieces of `size` bytes (as a pipe delivers it) and returns what was shown.
    static func shown(_ text: String, size: Int, longestLine: Int = LineSplitter.longestLine, redactor: Redactor) -> [String] {
        var splitter = LineSplitter(longestLine: longestLine, redactor: redactor)
        var shown: [String] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { splitter.feed($0) { shown.append(redactor.redact($0)) } }
            start = end
        }
        splitter.finish { shown.append(redactor.redact($0)) }
        return shown
    }

    /// `shown` for the batch path a step's log takes (`feed(_:emitLines:)`, then `StepLog.lines`).
    static func shownInBatches(_ text: String, size: Int, longestLine: Int = LineSplitter.longestLine, redactor: Redactor) -> [String] {
        var splitter = LineSplitter(longestLine: longestLine, redactor: redactor)
        let shown = LockedLines()
        let log = StepLog.batching(redactor: redactor, to: { batch in for line in batch.lines { shown.append(line) } })
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { splitter.feed($0, emitLines: { _ = log.lines($0) }) }
            start = end
        }
        splitter.finish(emitLines: { _ = log.lines($0) })
        return shown.all
    }

    @Test(arguments: [false, true]) func aSecretAcrossAPieceBoundaryIsNeverCut(inBatches: Bool) {
        let secret = "S3CRET-TOKEN-VALUE"
        let redactor = Redactor(secrets: [secret])
        for offset in 0..<40 {
            for size in [1, 7, 64, 4096] {
                let line = String(repeating: "a", count: 40 + offset) + secret + String(repeating: "b", count: 100)
                let shown = inBatches ? Self.shownInBatches(line + "\n", size: size, longestLine: 64, redactor: redactor)
                                      : Self.shown(line + "\n", size: size, longestLine: 64, redactor: redactor)
                #expect(!shown.contains { $0.contains("S3C") || $0.contains("LUE") || $0.contains("TOKEN") }, "offset \(offset), size \(size): \(shown)")
                #expect(shown.joined().filter { $0 == "a" || $0 == "b" }.count == 140 + offset, "nothing but the secret is lost")
            }
        }
    }

    /// Issue 21: a single-line secret of 64 KiB or more (a base64 key file) is masked whole.
    @Test(arguments: [(64 * 1024, false), (64 * 1024 + 1, false), (200_000, false), (64 * 1024 + 1, true)])
    func aSingleLineSecretOf64KiBOrMoreIsMasked(length: Int, inBatches: Bool) {
        var generator = SplitMix64(seed: UInt64(length))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let secret = String((0..<length).map { _ in alphabet[Int(generator.next() % 64)] })
        let redactor = Redactor(secrets: [secret])
        let shown = inBatches ? Self.shownInBatches("key: " + secret + " end\n", size: 4096, redactor: redactor)
                              : Self.shown("key: " + secret + " end\n", size: 4096, redactor: redactor)
        let probe = String(secret.prefix(24))
        #expect(!shown.contains { $0.contains(probe) || $0.contains(secret.suffix(24)) }, "the secret's start or end was shown")
        #expect(shown.joined().hasPrefix("key: "))
        #expect(shown.joined().hasSuffix(" end"))
        #expect(shown.joined().contains(Redactor.mask))
    }

    @Test func crlfAndMissingFinalLineEnd() {
        var splitter = LineSplitter(redactor: nil)
        var lines: [String] = []
        Array("one\r\ntwo\nthree".utf8).withUnsafeBytes { splitter.feed($0) { lines.append($0) } }
        splitter.finish { lines.append($0) }
        #expect(lines == ["one", "two", "three"])
        #expect(Self.shownInBatches("one\r\ntwo\nthree", size: 3, redactor: Redactor()) == ["one", "two", "three"])
    }

    /// The batch path shows what the line-by-line path shows, byte for byte, on random output cut
    /// into random reads: secrets in every shape (within a line, across reads, on lines of their
    /// own), CR LF, control characters, tabs, quotes, invalid UTF-8, overlong lines cut in pieces.
    /// And no secret comes out of either, nor of what each hands a step's result (`sh`'s output).
    /// Without a secret registered, a batch of plain lines takes a shortcut, which must agree too.
    @Test(arguments: [true, false]) func theBatchPathShowsWhatTheLineByLinePathShows(secretsRegistered: Bool) {
        let seed = UInt64.random(in: 0 ... .max)
        print("theBatchPathShowsWhatTheLineByLinePathShows(\(secretsRegistered)) seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        let secrets = ["hunter2-S3CRET-value", "p@ss w/\"quote\"", "ünïcødé-sécret", "first-line-of-key\nsecond-line-of-key"]
        let redactor = Redactor(secrets: secretsRegistered ? secrets : [])
        let shapes = secrets.flatMap { SecretShapes($0).patterns.map { String(decoding: $0, as: UTF8.self) } }
        let pieces: [[UInt8]] = (["build ", "ok", " ", "\t", "\"", "\\", "\r", "\r\n", "\n", "\n", "\u{1B}[31m", "\u{7F}", "é", "€", "𝄞", "\u{9B}"] + shapes)
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82]]
        for round in 0..<120 {
            var text: [UInt8] = []
            for _ in 0..<Int(generator.next() % 120) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let size = 1 + Int(generator.next() % 70)
            let longestLine = 16 + Int(generator.next() % 80)
            let perLineCollected = LineCollector(), batchCollected = LineCollector()
            let plainText = round % 3 == 0 ? text.filter { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A || $0 == 0x09 } : text
            let batched = Self.shownInBatches(plainText, size: size, longestLine: longestLine, redactor: redactor, collector: batchCollected)
            let perLine = round % 3 == 0 ? Self.shown(bytes: plainText, size: size, longestLine: longestLine, redactor: redactor, collector: perLineCollected)
                                         : Self.shown(bytes: text, size: size, longestLine: longestLine, redactor: redactor, collector: perLineCollected)
            #expect(batched == perLine, "seed \(seed), round \(round), reads of \(size): \(plainText)")
            #expect(batchCollected.lines == perLineCollected.lines, "seed \(seed), round \(round), reads of \(size): \(plainText)")
            guard secretsRegistered else { continue }
            for line in batched + batchCollected.lines {
                // A secret of several lines is masked line by line (each of its lines is a shape).
                let fragments = secrets.flatMap { $0.split(separator: "\n").map(String.init) }
                #expect(!fragments.contains { line.contains($0) }, "seed \(seed), round \(round): \(line.debugDescription)")
            }
        }
    }

    static func shown(bytes: [UInt8], size: Int, longestLine: Int, redactor: Redactor, collector: LineCollector? = nil) -> [String] {
        var splitter = LineSplitter(longestLine: longestLine, redactor: redactor)
        let shown = LockedLines()
        let log = StepLog(redactor: redactor) { shown.append($0) }
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { splitter.feed($0, emit: { log.line($0, collectingInto: collector) }) }
            start = end
        }
        splitter.finish(emit: { log.line($0, collectingInto: collector) })
        return shown.all
    }

    static func shownInBatches(_ bytes: [UInt8], size: Int, longestLine: Int, redactor: Redactor, collector: LineCollector? = nil) -> [String] {
        var splitter = LineSplitter(longestLine: longestLine, redactor: redactor)
        let shown = LockedLines()
        let log = StepLog.batching(redactor: redactor, to: { batch in for line in batch.lines { shown.append(line) } })
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { splitter.feed($0, emitLines: { _ = log.lines($0, collectingInto: collector) }) }
            start = end
        }
        splitter.finish(emitLines: { _ = log.lines($0, collectingInto: collector) })
        return shown.all
    }
}

enum ProcessEnvironmentForTests {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = ProcessEnvironment.block
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

extension String {
    init(contentsOfProcFile path: String) throws {
        guard let file = fopen(path, "r") else { throw LanesError(.environment, "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
