// Startup benchmark for the lanes driver: prints median and p90 wall times of
//   - warm `lanes list` and a warm no-op lane, end to end (driver + cached runner),
//   - exec'ing the cached runner directly, and a hello-world Swift binary, for comparison,
//   - a cold compile of a 200-line Lanefile.
// Usage: swift run -c release StartupBenchmark [--lanes PATH] [--runs N]
import Foundation
import LanesPlatform

struct Options {
    var lanes = FileManager.default.currentDirectoryPath + "/.build/release/lanes"
    var runs = 60

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? lanes).standardizedFileURL.path
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            default: fatalError("unknown argument \(argument); usage: StartupBenchmark [--lanes PATH] [--runs N]")
            }
        }
    }
}

/// Runs a command to completion with output discarded; returns its wall time in milliseconds.
/// posix_spawn directly: Foundation's Process adds tens of milliseconds of its own per launch.
func timed(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> Double {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // The child inherits the working directory; this benchmark runs one command at a time.
    guard chdir(directory.path) == 0 else { throw BenchmarkError("cannot enter \(directory.path)") }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard spawned == 0 else { throw BenchmarkError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = clock.now - start
    guard status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed with wait status \(status)") }
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Figures {
    let samples: [Double]
    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }
    func percentile(_ fraction: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }
}

func measure(_ runs: Int, warmup: Int = 3, _ body: () throws -> Double) rethrows -> Figures {
    for _ in 0..<warmup { _ = try body() }
    return Figures(samples: try (0..<runs).map { _ in try body() })
}

func line(_ label: String, _ figures: Figures, target: String = "") {
    let text = label.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "median %8.2f ms   p90 %8.2f ms", figures.median, figures.p90)
    print(text + (target.isEmpty ? "" : "   " + target))
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard FileManager.default.isExecutableFile(atPath: options.lanes) else {
    fatalError("\(options.lanes) not found: build it with `swift build -c release` (make bench-startup does)")
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-startup-\(getpid())")
let project = work.appendingPathComponent("project")
let cache = work.appendingPathComponent("cache")
try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

var environment = ProcessInfo.processInfo.environment
environment["LANES_CACHE_DIR"] = cache.path
environment["NO_COLOR"] = "1"

try """
    import Lanes

    let lanes = Lanefile {
        Lane("noop", "Does nothing") {}
    }

    """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)

print("lanes startup benchmark (\(options.runs) runs each, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
print("lanes: \(options.lanes)")
_ = try timed([options.lanes, "list"], in: project, environment: environment)  // compile once
let runner = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("runners").path)
    .filter { !$0.hasPrefix(".") }.map { cache.appendingPathComponent("runners/\($0)/runner").path }.first!

let hello = work.appendingPathComponent("hello")
try "print(\"hello\")\n".write(to: work.appendingPathComponent("hello.swift"), atomically: true, encoding: .utf8)
_ = try timed(["/usr/bin/env", "swiftc", "-O", work.appendingPathComponent("hello.swift").path, "-o", hello.path],
              in: work, environment: environment)

line("warm `lanes list` end to end", try measure(options.runs) { try timed([options.lanes, "list"], in: project, environment: environment) }, target: "target <= 25 ms")
line("warm no-op lane end to end", try measure(options.runs) { try timed([options.lanes, "noop"], in: project, environment: environment) }, target: "target <= 25 ms")
line("cached runner exec'd directly (list)", try measure(options.runs) {
    try timed([runner, "--project-dir", project.path, "list"], in: project, environment: environment)
})
line("hello-world Swift binary", try measure(options.runs) { try timed([hello.path], in: work, environment: environment) })

// Cold compile: a 200-line Lanefile with 40 lanes, each compile in an empty cache.
var big = "import Lanes\n\nstruct Staging: Configuration {\n    let certificate = \"dist\"\n    let provisioningProfile = \"Staging\"\n    let buildConfiguration = \"Staging\"\n    let appIdentifier = \"works.sth.app\"\n    let exportMethod = ExportMethod.adHoc\n}\n\nlet lanes = Lanefile {\n"
for index in 0..<38 {
    big += "    Lane(\"lane\(index)\", \"Lane number \(index)\") {\n        let config = Staging()\n        try echo(\"\\(config.appIdentifier) \(index)\")\n        try await sh(\"true\")\n    }\n"
}
big += "}\n"
let bigProject = work.appendingPathComponent("big")
try FileManager.default.createDirectory(at: bigProject, withIntermediateDirectories: true)
try big.write(to: bigProject.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
let lineCount = big.split(separator: "\n", omittingEmptySubsequences: false).count
let cold = try measure(5, warmup: 0) {
    try? FileManager.default.removeItem(at: cache)
    return try timed([options.lanes, "list"], in: bigProject, environment: environment)
}
line("cold compile + list, \(lineCount)-line Lanefile", cold, target: "target <= 3000 ms")
