// Redaction cost on a lane that prints 100 MB: the same lane (`cat` of a 100 MB text file in an
// `sh` step, through lanes' terminal output to a pipe) run without any secret, and with 10 secrets
// registered (some of which occur in the text, so masking happens too; each secret also brings its
// base64, URL- and JSON-encoded forms). Side by side, as anchors on the same file through the same
// pipe: `cat` alone (what the bytes cost without lanes) and `sed` replacing the same 10 secrets
// (a plain stream masker). Prints medians, output throughput and the overhead; the target is at
// most 5%.
// Usage: swift run -c release RedactionBenchmark [--lanes PATH] [--runs N] [--megabytes N]
import Foundation

struct Options {
    var lanes = FileManager.default.currentDirectoryPath + "/.build/release/lanes"
    var runs = 5
    var megabytes = 100

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

/// Runs `lanes` with its output read (and counted) through a pipe, as a CI log collector does.
/// Returns the wall time and the CPU time (user + system, lanes and its children) in seconds, and
/// the bytes it printed. CPU time shows the work redaction adds even when the machine is busy.
func timedRun(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> (Double, Double, Int) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkError("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
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
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu, total)
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

// The text: log-like lines of ~100 bytes; every 1000th line carries one of the secrets.
let secrets = (0..<10).map { "secret-value-\($0)-" + String(UInt64.random(in: 0 ... .max), radix: 36) }
var generator = SystemRandomNumberGenerator()
let words = ["compiling", "linking", "Sources/App/View.swift", "warning:", "note:", "[12/345]", "CompileSwift",
             "normal", "x86_64", "-Onone", "ld", "Build", "succeeded", "ProcessInfoPlistFile", "/tmp/DerivedData"]
var text = [UInt8]()
text.reserveCapacity(options.megabytes * 1_048_576 + 200)
var lineNumber = 0
while text.count < options.megabytes * 1_048_576 {
    var line = "\(lineNumber):"
    while line.utf8.count < 100 { line += " " + words[Int(generator.next() % UInt64(words.count))] }
    if lineNumber % 1000 == 999 { line += " " + secrets[lineNumber % secrets.count] }
    text.append(contentsOf: line.utf8)
    text.append(UInt8(ascii: "\n"))
    lineNumber += 1
}
let output = project.appendingPathComponent("output.txt")
try Data(text).write(to: output)
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
base["NO_COLOR"] = "1"
var withSecrets = base
for (index, secret) in secrets.enumerated() { withSecrets["BENCH_SECRET_\(index)"] = secret }

_ = try timedRun([options.lanes, "loud"], in: project, environment: base)  // compiles the Lanefile
let sed = ["/usr/bin/env", "sed", secrets.map { "s/\($0)/***/g" }.joined(separator: ";"), output.path]
let sides: [(name: String, arguments: [String], environment: [String: String])] = [
    ("lanes, no secrets", [options.lanes, "loud"], base),
    ("lanes, 10 secrets (masked)", [options.lanes, "loud"], withSecrets),
    ("cat (anchor: no lanes)", ["/usr/bin/env", "cat", output.path], base),
    ("sed masking 10 (anchor)", sed, base),
]
var wall = Array(repeating: [Double](), count: sides.count)
var cpu = Array(repeating: [Double](), count: sides.count)
var printed = Array(repeating: 0, count: sides.count)
for _ in 0..<options.runs {
    // Alternate, so that a slower or busier moment of the machine hits every side alike.
    for (index, side) in sides.enumerated() {
        let (time, cpuTime, bytes) = try timedRun(side.arguments, in: project, environment: side.environment)
        wall[index].append(time)
        cpu[index].append(cpuTime)
        printed[index] = bytes
    }
}
print(String(format: "lane printing %d MB (%d lines), %d runs each, output read through a pipe", options.megabytes, lineNumber, options.runs))
for (index, side) in sides.enumerated() {
    let throughput = Double(printed[index]) / 1_048_576 / median(wall[index])
    let label = side.name.padding(toLength: 28, withPad: " ", startingAt: 0)
    print("  \(label)" + String(format: " median %.3f s wall (%6.1f MiB/s out), %.3f s CPU  (%d bytes out)",
                                 median(wall[index]), throughput, median(cpu[index]), printed[index]))
}
let overhead = (median(wall[1]) / median(wall[0]) - 1) * 100
let cpuOverhead = (median(cpu[1]) / median(cpu[0]) - 1) * 100
print(String(format: "  redaction overhead:  %+.1f%% wall (target: at most +5%%), %+.1f%% CPU", overhead, cpuOverhead))
print(String(format: "  lanes over cat:      %.2fx wall without secrets, %.2fx with; sed masking over cat: %.2fx",
             median(wall[0]) / median(wall[2]), median(wall[1]) / median(wall[2]), median(wall[3]) / median(wall[2])))

/// The benchmark's "no secrets" side must not inherit secret-named variables from the shell.
enum SecretNamesForBenchmark {
    static func looksSecret(_ name: String) -> Bool {
        let upper = name.uppercased()
        return ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATE", "PASSPHRASE", "APIKEY", "API_KEY"]
            .contains { upper.contains($0) } || upper.hasSuffix("_KEY")
    }
}
