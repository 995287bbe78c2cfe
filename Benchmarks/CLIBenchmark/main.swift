// Latency of what a user waits for at the prompt: completing a lane name (the cached runner's list,
// alone and through bash's completion function), and the help and version commands. Medians and p90
// of wall time, release build, warm cache.
// Usage: swift run -c release CLIBenchmark [--lanes PATH] [--runs N]
import Foundation
import LanesPlatform

var lanesPath = FileManager.default.currentDirectoryPath + "/.build/release/lanes"
var runs = 40
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
    switch argument {
    case "--lanes": lanesPath = URL(fileURLWithPath: argumentIterator.next() ?? lanesPath).standardizedFileURL.path
    case "--runs": runs = Int(argumentIterator.next() ?? "") ?? runs
    default: fatalError("unknown argument \(argument); usage: CLIBenchmark [--lanes PATH] [--runs N]")
    }
}
guard FileManager.default.isExecutableFile(atPath: lanesPath) else {
    fatalError("\(lanesPath) not found: make bench-cli builds it")
}

/// Wall time of one run in milliseconds, output discarded; posix_spawn keeps Foundation's own
/// process start-up out of the figure.
func timed(_ arguments: [String], in directory: URL, environment: [String: String]) -> Double {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard chdir(directory.path) == 0 else { fatalError("cannot enter \(directory.path)") }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { fatalError("cannot start \(arguments[0])") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = clock.now - start
    guard status == 0 else { fatalError("\(arguments.joined(separator: " ")) failed with wait status \(status)") }
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

@MainActor func report(_ label: String, _ arguments: [String], in directory: URL, environment: [String: String]) -> Double {
    for _ in 0..<3 { _ = timed(arguments, in: directory, environment: environment) }
    let samples = (0..<runs).map { _ in timed(arguments, in: directory, environment: environment) }.sorted()
    let median = samples[samples.count / 2]
    let p90 = samples[min(samples.count - 1, Int(Double(samples.count - 1) * 0.9 + 0.5))]
    print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "median %7.2f ms   p90 %7.2f ms", median, p90))
    return median
}

let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-cli-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: work) }
var environment = ProcessInfo.processInfo.environment
environment["LANES_CACHE_DIR"] = work.appendingPathComponent("cache").path
environment["NO_COLOR"] = "1"
environment["PATH"] = URL(fileURLWithPath: lanesPath).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

@MainActor func project(lanes count: Int) throws -> URL {
    let directory = work.appendingPathComponent("project-\(count)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try """
        import Lanes
        let version = LaneOption<String>("version", "The version to ship")
        let lanes = Lanefile {
            Lane("deploy", "Ship a version", options: [version.info], environment: ["KEYCHAIN_NAME"], secrets: ["CERTIFICATE_PASSWORD"]) { _ in }
            for index in 1..<\(count) { Lane("lane\\(index)", "Lane number \\(index)") {} }
        }

        """.write(to: directory.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
    _ = timed([lanesPath, "list"], in: directory, environment: environment)  // compile once
    return directory
}

print("lanes command-line latency (\(runs) runs each, \(ProcessInfo.processInfo.activeProcessorCount) cores, warm cache)")
let small = try project(lanes: 40)
let large = try project(lanes: 2000)
let script = work.appendingPathComponent("lanes.bash")
_ = timed(["/bin/sh", "-c", "\(lanesPath) completion bash > \(script.path)"], in: small, environment: environment)
let bashCall = "source \(script.path); COMP_WORDS=(lanes de); COMP_CWORD=1; COMP_LINE='lanes de'; COMP_POINT=8; _lanes_with_lanes lanes de lanes"

_ = report("lane names for completion, 40 lanes", [lanesPath, "__complete-lanes"], in: small, environment: environment)
_ = report("lane names for completion, 2,000 lanes", [lanesPath, "__complete-lanes"], in: large, environment: environment)
let sourcing = report("bash: start and source the script (baseline)", ["/bin/bash", "-c", "source \(script.path)"], in: small, environment: environment)
let completing = report("bash: start, source, complete `lanes de<TAB>`", ["/bin/bash", "-c", bashCall], in: small, environment: environment)
print("  => one TAB in an open bash costs about " + String(format: "%.2f ms", completing - sourcing))
_ = report("lanes --help (lists 40 lanes)", [lanesPath, "--help"], in: small, environment: environment)
_ = report("lanes help deploy", [lanesPath, "help", "deploy"], in: small, environment: environment)
_ = report("lanes deploy --help", [lanesPath, "deploy", "--help"], in: small, environment: environment)
_ = report("lanes --version (runs swiftc --version)", [lanesPath, "--version"], in: small, environment: environment)
_ = report("lanes env", [lanesPath, "env"], in: small, environment: environment)
