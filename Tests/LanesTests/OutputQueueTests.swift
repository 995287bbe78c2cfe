import Foundation
import Synchronization
import Testing
@testable import LanesPlatform
import LanesTestSupport
import LanesWire
@testable import LanesRuntime

/// Issue 21: a step's output goes out in batches, yet a quiet child's line shows at once, every
/// line stays in order, and what lanes writes now comes after what it queued.
@Suite(.timeLimit(.minutes(3))) struct OutputQueueTests {
    /// A pipe whose read end is drained into memory by a thread of its own, as a terminal would.
    final class PipeReader: Sendable {
        let writeEnd: Int32
        private let readEnd: Int32
        private let received = Mutex<[UInt8]>([])
        private let reads = Mutex(0)

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw LanesError(.internal, "pipe failed") }
            // Children other tests start must not hold the write end open (the reader would never end).
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            readEnd = ends[0]
            writeEnd = ends[1]
            startThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    received.withLock { $0 += buffer[0..<count] }
                    reads.withLock { $0 += 1 }
                }
                close(readEnd)
            }
        }

        var text: String { received.withLock { String(decoding: $0, as: UTF8.self) } }
        var readCount: Int { reads.withLock { $0 } }

        /// Waits until `condition` holds for what arrived (`eventually`: up to two minutes of looks).
        func wait(until condition: (String) -> Bool) async throws -> Bool {
            try await eventually(looks: 120_000, every: .milliseconds(1)) { condition(text) }
        }

        func closeWriteEnd() { close(writeEnd) }
    }

    @Test func aQuietChildsLineShowsWithoutWaitingForMore() async throws {
        let reader = try PipeReader()
        defer { reader.closeWriteEnd() }
        let output = TextOutput(descriptor: reader.writeEnd, redactor: Redactor(), streams: RedactedStandardStreams())
        output.writeOutputLine("compiling Brewer")
        // Nothing else comes: the line must not sit in the queue until a batch fills.
        #expect(try await reader.wait { $0 == "compiling Brewer\n" }, "got \(reader.text.debugDescription)")
    }

    /// The whole path a step's output takes (child, line splitter, step log, terminal reporter):
    /// a line shows while the child, quiet, still runs.
    @Test func aChildsLineReachesTheTerminalWhileTheChildStillRuns() async throws {
        let reader = try PipeReader()
        defer { reader.closeWriteEnd() }
        let redactor = Redactor()
        let streams = RedactedStandardStreams()
        let reporter = TerminalReporter(output: TextOutput(descriptor: reader.writeEnd, redactor: redactor, streams: streams),
                                        errors: TextOutput(descriptor: reader.writeEnd, redactor: redactor, streams: streams),
                                        capabilities: TerminalCapabilities(colors: false, liveStatus: false), gitHub: nil)
        let log = StepLog(redactor: redactor) { reporter.report(.output(step: 1, line: $0)) }
        let child = Task {
            try await SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current).run(
                ProcessRequest(["sh", "-c", "echo ready; exec sleep 600"])) { log.line($0) }
        }
        #expect(try await reader.wait { $0 == "ready\n" }, "got \(reader.text.debugDescription)")
        child.cancel()
        _ = try? await child.value
    }

    @Test func manyLinesGoOutInOrderAndWhatIsWrittenNowComesAfter() async throws {
        let reader = try PipeReader()
        defer { reader.closeWriteEnd() }
        let output = TextOutput(descriptor: reader.writeEnd, redactor: Redactor(), streams: RedactedStandardStreams())
        let count = 20_000
        for number in 0..<count { output.writeOutputLine("line \(number)") }
        output.writeLine("lane done")
        // `writeLine` returns once written: everything queued before it is out already.
        let expected = (0..<count).map { "line \($0)\n" }.joined() + "lane done\n"
        #expect(try await reader.wait { $0.utf8.count >= expected.utf8.count })
        #expect(reader.text == expected)
    }

    @Test func linesFromSeveralThreadsAreNeitherLostNorCutAndEachKeepsItsOrder() async throws {
        let reader = try PipeReader()
        defer { reader.closeWriteEnd() }
        let output = TextOutput(descriptor: reader.writeEnd, redactor: Redactor(), streams: RedactedStandardStreams())
        let perThread = 5_000
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for number in 0..<perThread { output.writeOutputLine("t\(thread) \(number)") } }
            }
        }
        output.writeLine("end")
        #expect(try await reader.wait { $0.hasSuffix("end\n") })
        let lines = reader.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 * perThread + 1)
        #expect(lines.last == "end")
        for thread in 0..<4 {
            let own = lines.filter { $0.hasPrefix("t\(thread) ") }
            #expect(own == (0..<perThread).map { "t\(thread) \($0)" })
        }
    }

    @Test func aSecretInAQueuedLineIsMaskedOnItsWayOut() async throws {
        let reader = try PipeReader()
        defer { reader.closeWriteEnd() }
        let redactor = Redactor(secrets: ["hunter2-very-secret"])
        let output = TextOutput(descriptor: reader.writeEnd, redactor: redactor, streams: RedactedStandardStreams())
        output.writeOutputLine("token=hunter2-very-secret ok")
        output.writeLine("done")
        #expect(try await reader.wait { $0.hasSuffix("done\n") })
        #expect(reader.text == "token=\(Redactor.mask) ok\ndone\n")
    }

    /// The queue keeps what it holds bounded: a producer far ahead of a reader that stalls waits.
    @Test func aProducerAheadOfAStalledReaderWaitsInsteadOfGrowingTheQueue() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let queue = OutputQueue(capacity: 256 << 10)
        let produced = Counter()
        let line = String(repeating: "x", count: 1023)
        // A thread of its own, not a task: it blocks, and a blocked task holds one of the few
        // threads every other test's task needs (two on two cores), which hung a full run.
        startThread {
            for _ in 0..<4096 {  // 4 MiB, far more than the pipe (64 KiB) and the queue hold
                queue.enqueue(to: .descriptor(writeEnd)) { $0.append(contentsOf: line.utf8); $0.append(10) }
                produced.add(1024)
            }
            queue.flush()
            close(writeEnd)
        }
        // Nobody reads yet: the producer must stop once the pipe and the queue are full.
        var last = -1
        while produced.value != last {
            last = produced.value
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(last < 1 << 20, "\(last) bytes queued behind a stalled reader")
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            total += count
        }
        // The end of the pipe came: the producer wrote everything and closed it.
        #expect(total == 4096 * 1024)
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func add(_ amount: Int) { count.withLock { $0 += amount } }
    var value: Int { count.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(3))) struct OutputEncodingTests {
    /// The byte-level JSON quoting equals the scalar-by-scalar definition on random text with
    /// controls, quotes, backslashes and characters of every UTF-8 length.
    @Test func jsonQuotingMatchesItsDefinition() {
        let seed = UInt64.random(in: 0 ... .max)
        print("jsonQuotingMatchesItsDefinition seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "é", "€", "𝄞", "\r\n", "/"]
        for _ in 0..<2000 {
            let text = (0..<Int(generator.next() % 20)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(JSONText.quote(text) == Self.reference(text), "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func theControlCheckOnBytesAgreesWithTheCheckOnScalars() {
        let seed = UInt64.random(in: 0 ... .max)
        print("theControlCheckOnBytesAgreesWithTheCheckOnScalars seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        let pieces: [String] = ["a", "\t", "\u{1B}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\u{A0}", "é", "€", "𝄞", "\u{C2}"]
        for _ in 0..<2000 {
            let text = (0..<Int(generator.next() % 8)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let onBytes = Array(text.utf8).withUnsafeBufferPointer { TerminalText.containsControl($0) }
            #expect(onBytes == text.unicodeScalars.contains(where: TerminalText.isControl), "seed \(seed): \(text.debugDescription)")
        }
    }

    /// `output` events skip building a `JSONValue`: the bytes must be the generic encoder's.
    @Test func theOutputEventFastPathWritesWhatTheGenericEncoderWrites() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-events-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let redactor = Redactor(secrets: ["s3cr3t-token"])
        let reporter = JSONLinesReporter(output: TextOutput(descriptor: descriptor, redactor: redactor, streams: RedactedStandardStreams()))
        let lines = ["plain", "quote \" backslash \\ tab \t bell \u{7} é 𝄞", "has s3cr3t-token inside", ""]
        for (index, line) in lines.enumerated() { reporter.report(.output(step: index * 7, line: line)) }
        reporter.report(.message("end"))  // written now, so everything queued before is in the file
        close(descriptor)
        let expected = lines.enumerated().map { index, line in
            JSONValue.object([("event", "output"), ("step", .number(Double(index * 7))), ("line", .string(line))]).serialized(redactor: redactor) + "\n"
        }.joined() + JSONValue.object([("event", "message"), ("text", "end")]).serialized(redactor: redactor) + "\n"
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    }

    /// Quoting UTF-8 bytes eight at a time gives what quoting the text gives, at every length
    /// (the last word is shorter) and wherever the byte to escape falls in a word.
    @Test func quotingBytesEqualsQuotingText() {
        let seed = UInt64.random(in: 0 ... .max)
        print("quotingBytesEqualsQuotingText seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "é", "€", "𝄞", "/", "abcdefgh"]
        for _ in 0..<3000 {
            let text = (0..<Int(generator.next() % 40)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            var bytes: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { JSONText.appendQuoted(utf8: $0, to: &bytes) }
            #expect(String(decoding: bytes, as: UTF8.self) == Self.reference(text), "seed \(seed): \(text.debugDescription)")
        }
    }

    /// The eight-bytes-at-a-time check for printable ASCII agrees with the byte-by-byte definition.
    @Test func thePrintableCheckAgreesWithItsDefinition() {
        let seed = UInt64.random(in: 0 ... .max)
        print("thePrintableCheckAgreesWithItsDefinition seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        let bytes: [UInt8] = [0x20, 0x41, 0x7E, 0x09, 0x0A, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xC2, 0x9B, 0xFF, 0x21, 0x61]
        for _ in 0..<5000 {
            let text = (0..<Int(generator.next() % 30)).map { _ in generator.next() % 4 == 0 ? bytes[Int(generator.next() % UInt64(bytes.count))] : 0x61 }
            let expected = text.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
            #expect(text.withUnsafeBufferPointer(TerminalText.isPrintableASCII) == expected, "seed \(seed): \(text)")
        }
    }

    /// A batch of output lines becomes the same `output` events, byte for byte, as the lines one by
    /// one, secrets masked once (the batch is not redacted again, and needs not be).
    @Test func aBatchOfOutputLinesWritesTheEventsOfItsLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-events-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let redactor = Redactor(secrets: ["s3cr3t-token"])
        let reporter = JSONLinesReporter(output: TextOutput(descriptor: descriptor, redactor: redactor, streams: RedactedStandardStreams()))
        let log = StepLog.batching(redactor: redactor, to: { reporter.reportOutput(step: 3, lines: $0) })
        let lines = ["plain", "quote \" backslash \\ tab \t bell \u{7} é 𝄞", "has s3cr3t-token inside", "", "cr at the end\r", "s3cr3t-token"]
        Array(lines.map { $0 + "\n" }.joined().utf8).withUnsafeBufferPointer { log.lines($0) }
        reporter.report(.message("end"))
        close(descriptor)
        let shown = ["plain", "quote \" backslash \\ tab \t bell ^G é 𝄞", "has ******** inside", "", "cr at the end", "********"]
        let expected = shown.map { line in
            JSONValue.object([("event", "output"), ("step", .number(3)), ("line", .string(line))]).serialized + "\n"
        }.joined() + JSONValue.object([("event", "message"), ("text", "end")]).serialized + "\n"
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == expected)
        #expect(!written.contains("s3cr3t"))
    }

    /// The events file's reporter writes a step's batch as one `output_batch` record: the bytes are
    /// the generic encoder's, the record reads back as the batch's lines, and a secret split across
    /// two reads of the child (so across two batches) is masked in both.
    @Test func theEventsFileWritesABatchAsOneRecordThatReadsBackAsItsLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-events-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let secret = "s3cr3t-token"
        let redactor = Redactor(secrets: [secret])
        let reporter = JSONLinesReporter(output: TextOutput(descriptor: descriptor, redactor: redactor, streams: RedactedStandardStreams()),
                                         runContext: .init(), batchesOutput: true)
        let log = StepLog.batching(redactor: redactor, to: { reporter.reportOutput(step: 3, lines: $0) })
        var splitter = LineSplitter(longestLine: 16, redactor: redactor)
        let printed = "plain\nquote \" backslash \\ tab \t bell \u{7} é 𝄞\nhas s3cr3t-token inside\n\ncr at the end\r\n"
            + "a line longer than sixteen bytes with s3cr3t-token in it\ns3cr3t-"
        let rest = "token\n"
        for chunk in [printed, rest] {
            Array(chunk.utf8).withUnsafeBytes { bytes in splitter.feed(bytes, emitLines: { log.lines($0) }) }
        }
        splitter.finish(emitLines: { log.lines($0) })
        reporter.report(.message("end"))
        close(descriptor)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!written.contains(secret) && !written.contains("s3cr3t"), "\(written)")
        let records = written.split(separator: "\n").compactMap { RunEventRecord(line: Array($0.utf8)) }
        let batches = records.compactMap { if case .outputBatch(let batch) = $0 { batch } else { nil } }
        #expect(batches.count >= 2 && batches.allSatisfy { $0.step == 3 })
        for (record, line) in zip(records, written.split(separator: "\n")) {
            #expect(record.line == String(line), "the fast path writes what the generic encoder writes")
        }
        let lines = batches.flatMap(\.lines).joined(separator: "\n")
        #expect(lines.hasPrefix("plain\nquote \" backslash \\ tab \t bell ^G é 𝄞\nhas ******** inside\n\ncr at the end\n"), "\(lines)")
        #expect(lines.hasSuffix("\n********"), "\(lines)")
    }

    @Test func aCollectorKeepsItsLimitAndCountsWhatItDrops() {
        let collector = LineCollector(byteLimit: 10)
        for line in ["12345", "1234", "12", "1"] { collector.append(line) }
        #expect(collector.lines == ["12345", "1234"])
        #expect(collector.droppedCount == 2, "after the first line that does not fit, nothing more is kept")
        let batches = LineCollector(byteLimit: 10)
        Array("12345\r\n1234\n12\n".utf8).withUnsafeBufferPointer { batches.append(lines: $0) }
        Array("1\n".utf8).withUnsafeBufferPointer { batches.append(lines: $0) }
        #expect(batches.lines == ["12345", "1234"])
        #expect(batches.droppedCount == 2)
    }

    @Test func theLogHandsItsCollectorEachLineRedactedOnceAsTheStringWayRedactsIt() {
        let secrets = ["s3cr3t-token", "p\u{e4}ss-w\u{f6}rd"]
        let redactor = Redactor(secrets: secrets)
        let log = StepLog.batching(redactor: redactor, to: { _ in })
        let collector = LineCollector()
        let lines = ["plain", "tab\tkept", "bell \u{7} kept raw", "has s3cr3t-token inside", "cr at the end\r",
                     "non-ASCII p\u{e4}ss-w\u{f6}rd \u{1D11E}", "base64 " + Base64.encode(Array("s3cr3t-token".utf8)), ""]
        // Two batches, as two reads of a child bring them.
        Array(lines[..<4].map { $0 + "\n" }.joined().utf8).withUnsafeBufferPointer { log.lines($0, collectingInto: collector) }
        Array(lines[4...].map { $0 + "\n" }.joined().utf8).withUnsafeBufferPointer { log.lines($0, collectingInto: collector) }
        let expected = lines.map { redactor.redact($0.hasSuffix("\r") ? String($0.dropLast()) : $0) }
        #expect(collector.lines == expected)
        #expect(collector.lines[1] == "tab\tkept" && collector.lines[2].contains("\u{7}"), "kept as printed, not made visible")
        for secret in secrets { #expect(!collector.lines.joined().contains(secret)) }
        #expect(!collector.lines.joined().contains(Base64.encode(Array("s3cr3t-token".utf8))))
    }

    @Test func collectedLinesAreRedactedAgainWhenASecretRegisteredMeanwhile() {
        let redactor = Redactor(secrets: ["first-secret"])
        let atStart = redactor.registeredCount
        let log = StepLog.batching(redactor: redactor, to: { _ in })
        let collector = LineCollector()
        Array("first-secret and later-secret\n".utf8).withUnsafeBufferPointer { log.lines($0, collectingInto: collector) }
        #expect(collector.lines(redactedBy: redactor, secretsWhenStarted: atStart) == ["******** and later-secret"])
        redactor.register("later-secret")
        #expect(collector.lines(redactedBy: redactor, secretsWhenStarted: atStart) == ["******** and ********"])
    }

    @Test func aFullCollectorOnlyCountsTheLinesOfLaterBatches() {
        let redactor = Redactor()
        let log = StepLog.batching(redactor: redactor, to: { _ in })
        let collector = LineCollector(byteLimit: 10)
        Array("12345\n1234\n12\n".utf8).withUnsafeBufferPointer { log.lines($0, collectingInto: collector) }
        Array("1\n2\n".utf8).withUnsafeBufferPointer { log.lines($0, collectingInto: collector) }
        #expect(collector.lines == ["12345", "1234"])
        #expect(collector.droppedCount == 3)
    }

    /// What `JSONText.quote` did before it worked on bytes.
    static func reference(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u00" + Hex.encode([UInt8(scalar.value)])
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
