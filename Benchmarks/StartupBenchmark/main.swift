// Start-up of lanes as `make install` lays it out, against a hello-world Swift executable built the
// same way (`swiftc -O`, the toolchain lanes is built with). Every round runs each command once, in
// turn, so the load of a shared machine falls on all of them alike; medians of wall time and of CPU
// time (user + system of the child, from wait4) and their ratios to the hello world are printed.
//   warm `lanes list`, `lanes help LANE`: the driver, then the cached runner of a small Lanefile
//   `lanes --version`: the driver alone
//   `lanes git info` (in a small repository), `schedule`, `cron next`, `history`, `env`, `actions`,
//   `--help`: the driver, then `lanes-tool` (`schedule`, `env` and `--help` read the lanes the runner
//   listed when it was compiled, kept beside it)
// With --instructions, each command also runs once under callgrind (valgrind), which counts the
// instructions it executes: a figure the machine's load does not move.
// Usage: StartupBenchmark --lanes PREFIX/bin/lanes [--runs N] [--instructions]
import Foundation
import LanesPlatform

struct Options {
    var lanes = ""
    var runs = 41
    var instructions = false

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? "").standardizedFileURL.path
            case "--runs": runs = max(1, Int(iterator.next() ?? "") ?? runs)
            case "--instructions": instructions = true
            default: fail("unknown argument \(argument)")
            }
        }
        if lanes.isEmpty { fail("name the installed lanes with --lanes PREFIX/bin/lanes (make bench-startup installs one)") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\nusage: StartupBenchmark --lanes PREFIX/bin/lanes [--runs N] [--instructions]\n".utf8))
    exit(64)
}

struct Sample {
    let wall: Double
    let cpu: Double
}

/// Runs a command to completion with its output discarded: wall time and the child's CPU time, in
/// milliseconds. posix_spawn and wait4, so nothing of Foundation's Process is in the figure.
func run(_ arguments: [String], in directory: String, environment: [String: String]) -> Sample {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard chdir(directory) == 0 else { fail("cannot enter \(directory)") }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard spawned == 0 else { fail("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { fail("\(arguments.joined(separator: " ")) failed (wait status \(status)); run it by hand to see why") }
    return Sample(wall: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
                  cpu: ProcessUsage(usage).cpuSeconds * 1000)
}

/// Runs a shell command line and returns its standard output; fails the benchmark when it fails.
func shell(_ command: String, in directory: String, environment: [String: String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { fail("cannot run \(command): \(error)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fail("`\(command)` failed with status \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
}

/// Instructions a program executes, counted by callgrind. A Swift program with an async main can
/// crash valgrind 3.19 as it exits, so callgrind dumps its counts every 100,000 basic blocks and the
/// dumps are summed: at most the last partial block count is lost. Callgrind does not follow an exec
/// into a file of its own (the new image writes over the old one's), so a driver that execs is
/// counted up to its `execv` (`execs: true`) and what it execs is counted on its own.
func instructions(_ arguments: [String], execs: Bool = false, in directory: String, environment: [String: String]) -> Double? {
    let folder = NSTemporaryDirectory() + "lanes-callgrind-\(getpid())"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
    let mode = execs ? "--trace-children=yes --trace-children-skip='*' --dump-before='execv*'" : "--dump-every-bb=100000"
    _ = shell("valgrind --tool=callgrind \(mode) --callgrind-out-file=\(folder)/cg.%p \(quoted) >/dev/null 2>\(folder)/log || true",
              in: directory, environment: environment)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("cg.") }) ?? []
    var total = 0.0
    for file in files {
        let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") {
            total += Double(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }
    return total > 0 ? total : nil
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard FileManager.default.isExecutableFile(atPath: options.lanes) else { fail("\(options.lanes) is not an executable") }
let work = NSTemporaryDirectory() + "lanes-startup-\(getpid())"
let project = work + "/project"
try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }

var environment = ProcessInfo.processInfo.environment
environment["LANES_CACHE_DIR"] = work + "/cache"
environment["LANES_STATE_DIR"] = work + "/state"
environment["NO_COLOR"] = "1"
environment["GIT_CONFIG_NOSYSTEM"] = "1"
environment["HOME"] = work

try """
    import Lanes

    let version = LaneOption<String>("version", "The version to ship")

    let lanes = Lanefile {
        Lane("deploy", "Ship a version", options: [version], environment: ["KEYCHAIN_NAME"], secrets: ["CERTIFICATE_PASSWORD"]) { lane in
            try echo("shipping \\(try lane[version])")
        }
        .schedule("H 2 * * 1-5")
        Lane("test", "Run the tests") {
            try await sh("true")
        }
        Lane("noop", "Does nothing") {}
    }

    """.write(toFile: project + "/Lanefile.swift", atomically: true, encoding: .utf8)
// A small repository for `lanes git info`: three commits, a tag, a change in the working tree.
_ = shell("""
    git init -q -b main . && git config user.email bench@example.com && git config user.name Bench &&
    git add Lanefile.swift && git commit -q -m one && git tag v1.0.0 &&
    echo a > a.txt && git add a.txt && git commit -q -m two && echo b > b.txt && git add b.txt && git commit -q -m three &&
    echo changed >> a.txt
    """, in: project, environment: environment)

let hello = work + "/hello"
try "print(\"hello\")\n".write(toFile: work + "/hello.swift", atomically: true, encoding: .utf8)
_ = shell("swiftc -O hello.swift -o hello", in: work, environment: environment)
_ = run([options.lanes, "list"], in: project, environment: environment)  // compiles the Lanefile once

let commands: [(label: String, arguments: [String])] = [
    ("hello world (swiftc -O)", [hello]),
    ("lanes list", [options.lanes, "list"]),
    ("lanes help deploy", [options.lanes, "help", "deploy"]),
    ("lanes --version", [options.lanes, "--version"]),
    ("lanes git info", [options.lanes, "git", "info"]),
    // Other lanes-tool commands (the driver execs lanes-tool for each; issue 36: every one within 5x).
    ("lanes schedule", [options.lanes, "schedule"]),
    ("lanes cron next", [options.lanes, "cron", "next", "H 2 * * 1-5", "--seed", "deploy"]),
    ("lanes history", [options.lanes, "history"]),
    ("lanes env", [options.lanes, "env"]),
    ("lanes actions", [options.lanes, "actions"]),
    ("lanes --help", [options.lanes, "--help"]),
]
/// The lanes-tool commands (everything after `lanes --version`): their largest ratio is the figure.
let toolCommands = 4..<commands.count
for command in commands { _ = run(command.arguments, in: project, environment: environment) }  // warm the page cache
var samples = Array(repeating: [Sample](), count: commands.count)
for _ in 0..<options.runs {
    for (index, command) in commands.enumerated() {
        samples[index].append(run(command.arguments, in: project, environment: environment))
    }
}

print("lanes start-up: \(options.lanes)")
print("\(options.runs) interleaved rounds, \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage()) (before), medians:")
let helloWall = median(samples[0].map(\.wall))
let helloCPU = median(samples[0].map(\.cpu))
for (index, command) in commands.enumerated() {
    let wall = median(samples[index].map(\.wall))
    let cpu = median(samples[index].map(\.cpu))
    print(command.label.padding(toLength: 26, withPad: " ", startingAt: 0)
          + String(format: "wall %7.2f ms %5.2fx   CPU %7.2f ms %5.2fx", wall, wall / helloWall, cpu, cpu / helloCPU))
}
let worstTool = toolCommands.max { median(samples[$0].map(\.wall)) < median(samples[$1].map(\.wall)) }!
print(String(format: "lanes list %.2fx hello (target at most 3x); slowest lanes-tool command: %@ %.2fx (target at most 5x)",
             median(samples[1].map(\.wall)) / helloWall, commands[worstTool].label, median(samples[worstTool].map(\.wall)) / helloWall))
print("load average \(loadAverage()) (after)")
if options.instructions {
    // What the driver execs: the cached runner (as the driver calls it) or lanes-tool.
    let runners = (try? FileManager.default.contentsOfDirectory(atPath: work + "/cache/runners").filter { !$0.hasPrefix(".") }) ?? []
    guard let runnerFolder = runners.first else { fail("no compiled runner in \(work)/cache/runners") }
    let runner = [work + "/cache/runners/\(runnerFolder)/runner", "--project-dir", project, "--lanefile", project + "/Lanefile.swift"]
    let tool = FilePath.directory(of: FilePath.directory(of: options.lanes)) + "/lib/lanes/lanes-tool"
    let execed: [[String]?] = [nil, runner + ["list"], runner + ["help", "deploy"], nil]
        + commands[toolCommands].map { [tool] + $0.arguments.dropFirst() }
    print("instructions executed (callgrind; the driver up to its exec, plus what it execs):")
    let helloCount = instructions(commands[0].arguments, in: project, environment: environment)
    for (index, command) in commands.enumerated() {
        let label = command.label.padding(toLength: 26, withPad: " ", startingAt: 0)
        let next = execed[index]
        guard let helloCount, let own = instructions(command.arguments, execs: next != nil, in: project, environment: environment),
              let rest = next.map({ instructions($0, in: project, environment: environment) }) ?? 0 else {
            print(label + "not measured (is valgrind installed?)")
            continue
        }
        let total = own + rest
        print(label + String(format: "%8.1f M %5.2fx", total / 1e6, total / helloCount)
              + (next == nil ? "" : String(format: "   (driver %.1f M, then %.1f M)", own / 1e6, rest / 1e6)))
    }
}
