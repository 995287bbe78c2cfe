// lanes' output path on a lane that prints 100 MB: a lane whose `sh` step `cat`s a log, its output
// passing through lanes (line splitting, redaction, the terminal reporter, the run's events file)
// to a pipe that is read and counted, as a CI log collector does, or to a file. Two logs: lines
// built from the recorded xcodebuild fixtures (~75 bytes each), and 1 MiB lines without a break (a
// minified bundle, a base64 blob). Each with no secret and with 10 secrets registered (every
// 1000th line carries one; each secret also brings its base64, URL- and JSON-encoded shapes).
// Side by side in the same run, as anchors on the same file to the same pipe or file: `cat` alone
// (what the bytes cost without lanes), `sed` replacing the same 10 secrets (a plain stream
// masker), and lanes' redactor alone, in this process, on the same bytes in 64 KiB chunks.
// Prints medians of wall time, CPU time (user + system, the process and its children) and the
// largest peak RSS, and the throughput. Targets (issue 36): without secrets, lanes within 3x `cat`'s
// time; with 10, no slower than `sed` masking the same.
// Usage: swift run -c release RedactionBenchmark [--lanes PATH] [--runs N] [--megabytes N]
import Foundation
import LanesPlatform
import LanesRuntime

struct Options {
    var lanes = FileManager.default.currentDirectoryPath + "/.build/release/lanes"
    var runs = 3
    var megabytes = 100
    var fixtures = FileManager.default.currentDirectoryPath + "/Tests/LanesBuildTests/Fixtures/logs"

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? lanes).standardizedFileURL.path
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            case "--megabytes": megabytes = Int(iterator.next() ?? "") ?? megabytes
            default: fatalError("unknown argument \(argument); usage: RedactionBenchmark [--lanes PATH] [--runs N] [--megabytes N]")
            }
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where a side's standard output goes.
enum Sink: String { case pipe, file }

struct Measure {
    var wall: Double
    var cpu: Double
    /// Kilobytes (Linux's unit for ru_maxrss), the largest of the process and the children it waited for.
    var peakRSS: Int
    var bytes: Int
}

/// Runs a command with its standard output read (and counted) through a pipe, or written to a file.
func timedRun(_ arguments: [String], in directory: URL, environment: [String: String], sink: Sink,
              outputFile: URL) throws -> Measure {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkError("pipe failed") }
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch sink {
    case .pipe: posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    case .file: posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    posix_spawn_file_actions_addclose(&actions, ends[1])
    guard chdir(directory.path) == 0 else { throw BenchmarkError("cannot enter \(directory.path)") }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    close(ends[1])
    guard spawned == 0 else { throw BenchmarkError("cannot start \(arguments[0])") }
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        if count <= 0 { break }
        total += count
    }
    close(ends[0])
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = clock.now - start
    guard status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed with wait status \(status)") }
    if sink == .file {
        total = (try FileManager.default.attributesOfItem(atPath: outputFile.path)[.size] as? Int) ?? 0
    }
    let used = ProcessUsage(usage)
    return Measure(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                   cpu: used.cpuSeconds, peakRSS: used.peakResidentBytes / 1024, bytes: total)
}

/// lanes' redactor alone on the same file, read 64 KiB at a time (what a child's read hands over).
func redactorAlone(_ path: String, secrets: [String]) throws -> Measure {
    let redactor = Redactor(secrets: secrets)
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path)") }
    defer { close(descriptor) }
    let usageBefore = ProcessUsage.current()
    let clock = ContinuousClock()
    let start = clock.now
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        total += buffer.withUnsafeBufferPointer { chunk in
            redactor.redact(bytes: UnsafeBufferPointer(rebasing: chunk[0..<count]))?.count ?? count
        }
    }
    let elapsed = clock.now - start
    let usage = ProcessUsage.current()
    return Measure(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                   cpu: usage.cpuSeconds - usageBefore.cpuSeconds, peakRSS: usage.peakResidentBytes / 1024, bytes: total)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard FileManager.default.isExecutableFile(atPath: options.lanes) else {
    fatalError("\(options.lanes) not found: build it with `swift build -c release` (make bench-redaction does)")
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-redaction-\(getpid())")
defer { try? FileManager.default.removeItem(at: work) }
let project = work.appendingPathComponent("project")
try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)

let secrets = (0..<10).map { "secret-value-\($0)-" + String(UInt64.random(in: 0 ... .max), radix: 36) }
let size = options.megabytes * 1_048_576

/// Writes a log of `size` bytes to `path` a line at a time, in 1 MiB writes: the benchmark stays
/// small, since a child started with posix_spawn reports the parent's peak RSS as its own.
/// Returns the number of lines.
func writeLog(to path: String, nextLine: (Int) -> [UInt8]) throws -> Int {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw BenchmarkError("cannot create \(path)") }
    defer { close(descriptor) }
    var pending: [UInt8] = []
    var written = 0
    var number = 0
    func drain() throws {
        var offset = 0
        while offset < pending.count {
            let count = pending.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            guard count > 0 else { throw BenchmarkError("cannot write \(path)") }
            offset += count
        }
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }
    while written + pending.count < size {
        pending += nextLine(number)
        pending.append(UInt8(ascii: "\n"))
        number += 1
        if pending.count >= 1 << 20 { try drain() }
    }
    try drain()
    return number
}

/// xcodebuild-like: the recorded fixture logs over and over; every 1000th line carries a secret.
func writeXcodebuildLog(to path: String) throws -> Int {
    let names = try FileManager.default.contentsOfDirectory(atPath: options.fixtures).filter { $0.hasSuffix(".log") }.sorted()
    guard !names.isEmpty else { throw BenchmarkError("no fixture logs in \(options.fixtures): run from the repository root") }
    var lines: [[UInt8]] = []
    for name in names + Array(repeating: "archive-succeeded.log", count: 10) {
        let text = try String(contentsOfFile: options.fixtures + "/" + name, encoding: .utf8)
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { Array($0.utf8) }
    }
    return try writeLog(to: path) { number in
        number % 1000 == 999 ? lines[number % lines.count] + Array(" \(secrets[number / 1000 % secrets.count])".utf8)
                             : lines[number % lines.count]
    }
}

/// Lines of 1 MiB (base64-looking text), each carrying a secret 300,000 bytes in.
func writeLongLineLog(to path: String) throws -> Int {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var generator = SystemRandomNumberGenerator()
    return try writeLog(to: path) { number in
        var line = (0..<1_048_576).map { _ in alphabet[Int(generator.next() % 64)] }
        line.replaceSubrange(300_000..<300_000, with: Array(" \(secrets[number % secrets.count]) ".utf8))
        return line
    }
}

try """
    import Lanes

    let lanes = Lanefile {
        Lane("loud", "Prints a big file") {
            try await sh("cat", "output.txt")
        }
    }

    """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)

var base = ProcessInfo.processInfo.environment.filter { !SecretNamesForBenchmark.looksSecret($0.key) }
base["LANES_CACHE_DIR"] = work.appendingPathComponent("cache").path
base["LANES_STATE_DIR"] = work.appendingPathComponent("state").path
base["NO_COLOR"] = "1"
var withSecrets = base
for (index, secret) in secrets.enumerated() { withSecrets["BENCH_SECRET_\(index)"] = secret }

let output = project.appendingPathComponent("output.txt")
let written = work.appendingPathComponent("written.txt")
var load = [Double](repeating: 0, count: 3)
getloadavg(&load, 3)
print(String(format: "load average before: %.2f %.2f %.2f; %d runs each, medians", load[0], load[1], load[2], options.runs))
for (logName, writeLogFile) in [("xcodebuild-like lines", writeXcodebuildLog), ("1 MiB lines", writeLongLineLog)]
    as [(String, (String) throws -> Int)] {
    let lineCount = try writeLogFile(output.path)
    _ = try timedRun([options.lanes, "loud"], in: project, environment: base, sink: .pipe, outputFile: written)  // compiles the Lanefile
    let sed = ["/usr/bin/env", "sed", secrets.map { "s/\($0)/***/g" }.joined(separator: ";"), output.path]
    let cat = ["/usr/bin/env", "cat", output.path]
    let sides: [(name: String, arguments: [String], environment: [String: String], sink: Sink)] = [
        ("cat > pipe (anchor)", cat, base, .pipe),
        ("cat > file (anchor)", cat, base, .file),
        ("sed masking 10 > pipe", sed, base, .pipe),
        ("lanes, no secrets > pipe", [options.lanes, "loud"], base, .pipe),
        ("lanes, no secrets > file", [options.lanes, "loud"], base, .file),
        ("lanes, 10 secrets > pipe", [options.lanes, "loud"], withSecrets, .pipe),
        ("lanes, 10 secrets > file", [options.lanes, "loud"], withSecrets, .file),
    ]
    var measures = Array(repeating: [Measure](), count: sides.count)
    var alone: [Measure] = []
    for _ in 0..<options.runs {
        // Alternate, so that a slower or busier moment of the machine hits every side alike.
        for (index, side) in sides.enumerated() {
            measures[index].append(try timedRun(side.arguments, in: project, environment: side.environment, sink: side.sink,
                                                outputFile: written))
        }
        alone.append(try redactorAlone(output.path, secrets: secrets))
    }
    print(String(format: "%@: %d MB, %d lines", logName, options.megabytes, lineCount))
    func row(_ label: String, _ runs: [Measure]) -> Double {
        let wall = median(runs.map(\.wall))
        let throughput = Double(size) / 1_048_576 / wall
        print("  " + label.padding(toLength: 28, withPad: " ", startingAt: 0)
              + String(format: " %7.3f s wall %8.1f MiB/s  %7.3f s CPU  peak RSS %6.1f MB  (%d bytes out)",
                       wall, throughput, median(runs.map(\.cpu)), Double(runs.map(\.peakRSS).max() ?? 0) / 1024,
                       runs.last?.bytes ?? 0))
        return wall
    }
    var walls = zip(sides, measures).map { row($0.0.name, $0.1) }
    walls.append(row("redactor alone, 10 secrets", alone))
    print(String(format: "  lanes, no secrets: %.2fx cat's time to a pipe, %.2fx to a file (target: at most 3x)",
                 walls[3] / walls[0], walls[4] / walls[1]))
    print(String(format: "  lanes, 10 secrets > pipe: %.2fx sed's time (target: at most 1x), %.2fx cat's, %.2fx the redactor's alone; redaction adds %+.1f%% wall",
                 walls[5] / walls[2], walls[5] / walls[0], walls[5] / walls[7], (walls[5] / walls[3] - 1) * 100))
}

/// The benchmark's "no secrets" side must not inherit secret-named variables from the shell.
enum SecretNamesForBenchmark {
    static func looksSecret(_ name: String) -> Bool {
        let upper = name.uppercased()
        return ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATE", "PASSPHRASE", "APIKEY", "API_KEY"]
            .contains { upper.contains($0) } || upper.hasSuffix("_KEY")
    }
}
