// Build-log summariser throughput and memory on a 200 MB log generated from the recorded fixtures,
// and, in the same run, xcbeautify on the same file when a binary is at hand (XCBEAUTIFY=path,
// Benchmarks/.work/xcbeautify/.build/release/xcbeautify, or on PATH).
import LanesBuild
import LanesPlatform

let megabyte = 1_000_000
let targetSize = 200 * megabyte
let fixtures = "Tests/LanesBuildTests/Fixtures/logs"
let workFolder = "Benchmarks/.work"
let logPath = workFolder + "/buildlog-200MB.log"

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func peakRSSMegabytes() -> Double { Double(ProcessUsage.current().peakResidentBytes) / 1_048_576 }

func fail(_ message: String) -> Never {
    FileDescriptorIO.writeAll(Array("error: \(message)\n".utf8), to: 2)
    exit(1)
}

/// A typical archive log most of the time, every failure fixture now and then.
func generateLog() {
    var status = stat()
    if stat(logPath, &status) == 0, Int(status.st_size) >= targetSize { return }
    let typical = "archive-succeeded.log"
    let failures = ["compile-errors.log", "linker-errors.log", "script-phase.log", "package-resolution.log", "macro-trust.log",
                    "signing.log", "export-failed.log", "xcodebuild-test.log", "xcodebuild-swift-testing.log", "swift-test-linux.log"]
    var round: [UInt8] = []
    do {
        for _ in 0..<20 { round += try FilePath.readBytes(fixtures + "/" + typical) }
        for name in failures { round += try FilePath.readBytes(fixtures + "/" + name) }
    } catch {
        fail("run from the repository root: \(error)")
    }
    try? FilePath.makeDirectories(workFolder)
    let partial = logPath + ".partial"
    let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { fail("cannot create \(partial)") }
    var written = 0
    while written < targetSize {
        guard FileDescriptorIO.writeAll(round, to: descriptor) else { fail("cannot write \(partial)") }
        written += round.count
    }
    close(descriptor)
    rename(partial, logPath)
}

/// The CLI's path: 1 MiB reads fed as bytes.
func summariseBytes() -> (BuildLogSummary, Double) {
    let descriptor = open(logPath, O_RDONLY)
    guard descriptor >= 0 else { fail("cannot open \(logPath)") }
    defer { close(descriptor) }
    var summarizer = BuildLogSummarizer()
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let start = now()
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        buffer.withUnsafeBytes { summarizer.consume(bytes: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
    let summary = summarizer.finish()
    return (summary, now() - start)
}

/// A step's path: one String per line, as ProcessRunning hands them over (the split is timed too).
func summariseLines() -> (BuildLogSummary, Double) {
    let descriptor = open(logPath, O_RDONLY)
    guard descriptor >= 0 else { fail("cannot open \(logPath)") }
    defer { close(descriptor) }
    var summarizer = BuildLogSummarizer()
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var carry: [UInt8] = []
    let start = now()
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        var lineStart = 0
        for index in 0..<count where buffer[index] == 0x0A {
            if carry.isEmpty {
                summarizer.consume(line: String(decoding: buffer[lineStart..<index], as: UTF8.self))
            } else {
                carry += buffer[lineStart..<index]
                summarizer.consume(line: String(decoding: carry, as: UTF8.self))
                carry.removeAll(keepingCapacity: true)
            }
            lineStart = index + 1
        }
        carry += buffer[lineStart..<count]
    }
    if !carry.isEmpty { summarizer.consume(line: String(decoding: carry, as: UTF8.self)) }
    let summary = summarizer.finish()
    return (summary, now() - start)
}

func xcbeautifyPath() -> String? {
    if let given = getenv("XCBEAUTIFY").map({ String(cString: $0) }), !given.isEmpty { return given }
    let built = workFolder + "/xcbeautify/.build/release/xcbeautify"
    if access(built, X_OK) == 0 { return built }
    return FilePath.which("xcbeautify", path: getenv("PATH").map { String(cString: $0) })
}

/// The `VmHWM` (peak resident set) of a running process, in MB, from /proc.
func peakRSSOfRunning(_ pid: pid_t) -> Double? {
    guard let text = try? FilePath.read("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter(\.isNumber)
        return Double(String(digits)).map { $0 / 1024 }
    }
    return nil
}

/// Runs xcbeautify with the log on standard input and its output discarded; (seconds, peak RSS MB).
/// The peak is read from /proc while it runs: `wait4`'s ru_maxrss would report this process's own
/// peak, which a spawned child inherits on Linux.
func timeXcbeautify(_ program: String) -> (Double, Double?)? {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, logPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid = pid_t()
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
    defer { for pointer in argv { free(pointer) } }
    let start = now()
    guard posix_spawn(&pid, program, &actions, nil, argv, ProcessEnvironment.block) == 0 else { return nil }
    var status: Int32 = 0
    var peak: Double?
    while waitpid(pid, &status, WNOHANG) == 0 {
        if let current = peakRSSOfRunning(pid) { peak = max(peak ?? 0, current) }
        usleep(20_000)
    }
    return (now() - start, peak)
}

func format(_ value: Double, _ decimals: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

generateLog()
var status = stat()
stat(logPath, &status)
let size = Double(status.st_size)
print("log: \(logPath), \(format(size / Double(megabyte))) MB (generated from \(fixtures))")
let rssBefore = peakRSSMegabytes()
let (summary, bytesSeconds) = summariseBytes()
let rssAfterBytes = peakRSSMegabytes()
print("lanes (bytes, as `lanes xcode log`): \(format(size / Double(megabyte) / bytesSeconds)) MB/s (\(format(bytesSeconds, 2)) s), "
      + "\(summary.lineCount) lines, \(summary.errorCount) errors, \(summary.warningCount) warnings")
let (lineSummary, lineSeconds) = summariseLines()
print("lanes (one String per line, as a step): \(format(size / Double(megabyte) / lineSeconds)) MB/s (\(format(lineSeconds, 2)) s)")
if lineSummary.errorCount != summary.errorCount || lineSummary.warningCount != summary.warningCount {
    fail("the two feeding paths disagree: \(lineSummary.errorCount)/\(summary.errorCount) errors")
}
print("peak RSS: \(format(peakRSSMegabytes())) MB (\(format(rssBefore)) MB before summarising, \(format(rssAfterBytes)) MB after the bytes pass)")
if let program = xcbeautifyPath() {
    if let (seconds, rss) = timeXcbeautify(program) {
        print("xcbeautify (\(program)): \(format(size / Double(megabyte) / seconds)) MB/s (\(format(seconds, 2)) s), "
              + "peak RSS \(rss.map { format($0) + " MB" } ?? "unknown")")
    } else {
        print("xcbeautify: could not start \(program)")
    }
} else {
    print("xcbeautify: not available")
}
