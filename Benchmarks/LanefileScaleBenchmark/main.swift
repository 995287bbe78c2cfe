// How the cold compile of a Lanefile grows with its size: generated Lanefiles of 25, 50, 100 and 200
// lanes of 20 steps each (shell commands, messages with interpolation, build numbers, commit counts,
// changelogs, a certificate import, a conditional), all in one `Lanefile { ... }` block as users and
// `lanes import fastlane` write them. Each is compiled by `lanes list` with an empty cache; sizes
// (and builds, with several --lanes) alternate within each round. Prints wall and CPU time (the
// driver and the compiler it waits for), peak memory, and the growth exponent between sizes
// (1: linear, 2: quadratic). The anchor, in every round: `swiftc -Onone` compiling a hello world.
// Usage: LanefileScaleBenchmark --lanes [LABEL=]PATH [--lanes LABEL=PATH ...] [--sizes 25,50,100,200] [--steps 20] [--runs N]
import Foundation
import LanesPlatform

struct Build {
    let label: String
    let lanes: String
}

struct Options {
    var builds: [Build] = []
    var sizes = [25, 50, 100, 200]
    var steps = 20
    var runs = 1

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes":
                let value = iterator.next() ?? ""
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                let path = parts.count == 2 ? parts[1] : value
                builds.append(Build(label: parts.count == 2 ? parts[0] : "lanes", lanes: URL(fileURLWithPath: path).standardizedFileURL.path))
            case "--sizes": sizes = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--steps": steps = max(1, Int(iterator.next() ?? "") ?? steps)
            case "--runs": runs = max(1, Int(iterator.next() ?? "") ?? runs)
            default: fail("unknown argument \(argument)")
            }
        }
        if builds.isEmpty || sizes.isEmpty { fail("name a build with --lanes PATH") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\nusage: LanefileScaleBenchmark --lanes [LABEL=]PATH [--sizes 25,50,100,200] [--steps 20] [--runs N]\n".utf8))
    exit(64)
}

/// A Lanefile of `lanes` lanes with `steps` statements each, in one block.
func lanefile(lanes: Int, steps: Int) -> String {
    var text = "import Lanes\n\nlet lanes = Lanefile {\n"
    for lane in 0..<lanes {
        text += "    Lane(\"lane\(lane)\", \"Lane number \(lane)\", environment: [\"KEYCHAIN_NAME\"], secrets: [\"KEYCHAIN_PASSWORD\", \"CERTIFICATE_PASSWORD\"]) {\n"
        for step in 0..<steps {
            let line: String = switch step % 8 {
            case 0: "try await sh(\"echo\", \"lane \(lane) step \(step)\")"
            case 1: "try echo(\"building \(lane) at step \(step)\")"
            case 2: "try await incrementBuildNumber(xcodeproj: \"App.xcodeproj\", buildNumber: \"\(step)\")"
            case 3: "let count\(step) = try await numberOfCommits()"
            case 4: "let changes\(step) = try await changelogFromGitCommits(commitsCount: 5)"
            case 5: "try echo(\"\\(changes\(step - 1).commits.count) changes, \\(count\(step - 2)) commits\")"
            case 6: "try await importCertificate(keychainName: env(\"KEYCHAIN_NAME\"), keychainPassword: secret(\"KEYCHAIN_PASSWORD\"), certificatePath: \"dist\(lane).p12\", certificatePassword: secret(\"CERTIFICATE_PASSWORD\"))"
            default: "if try commandExists(\"xcodebuild\") { try await sh(\"xcodebuild\", \"-version\") }"
            }
            text += "        \(line)\n"
        }
        text += "    }\n"
    }
    return text + "}\n"
}

struct Sample {
    let wall: Double
    let cpu: Double
    let peakMiB: Double
}

/// `lanes list` in `directory` with an empty cache: wall and CPU seconds (the driver and the
/// compiler it waited for) and peak resident memory.
func coldList(_ build: Build, in directory: String, cache: String) -> Sample {
    try? FileManager.default.removeItem(atPath: cache)
    return timed(label: build.label, [build.lanes, "list"], in: directory, cache: cache)
}

/// The anchor: the same compiler on a hello world, without optimisation.
func helloWorld(in directory: String) -> Sample {
    timed(label: "swiftc", [swiftc, "-Onone", "hello.swift", "-o", "hello"], in: directory, cache: directory)
}

let swiftc = ProcessInfo.processInfo.environment["PATH"].flatMap { path in
    path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
} ?? "/usr/bin/swiftc"

func timed(label: String, _ arguments: [String], in directory: String, cache: String) -> Sample {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let errors = directory + "/errors.txt"
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var environment = ProcessInfo.processInfo.environment
    environment["LANES_CACHE_DIR"] = cache
    environment["NO_COLOR"] = "1"
    guard chdir(directory) == 0 else { fail("cannot enter \(directory)") }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { fail("cannot start \(arguments[0])") }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { fail("\(label): \(arguments.dropFirst().joined(separator: " ")) failed in \(directory): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")") }
    let measured = ProcessUsage(usage)
    return Sample(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                  cpu: measured.cpuSeconds, peakMiB: Double(measured.peakResidentBytes) / 1_048_576)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let work = NSTemporaryDirectory() + "lanes-scale-bench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: work) }
try FileManager.default.createDirectory(atPath: work + "/hello", withIntermediateDirectories: true)
try "print(\"Hello, world!\")\n".write(toFile: work + "/hello/hello.swift", atomically: true, encoding: .utf8)
for size in options.sizes {
    let folder = "\(work)/lanes-\(size)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try lanefile(lanes: size, steps: options.steps).write(toFile: folder + "/Lanefile.swift", atomically: true, encoding: .utf8)
}
print("Lanefile compile by size: \(options.sizes.map(String.init).joined(separator: ", ")) lanes of \(options.steps) steps, one block; \(options.runs) round(s), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage())")
var samples: [String: [Sample]] = [:]
for round in 0..<options.runs {
    for size in round % 2 == 0 ? options.sizes : options.sizes.reversed() {
        for build in options.builds {
            let sample = coldList(build, in: "\(work)/lanes-\(size)", cache: "\(work)/cache-\(build.label)")
            samples["\(build.label)/\(size)", default: []].append(sample)
        }
        samples["hello", default: []].append(helloWorld(in: work + "/hello"))
    }
}
for build in options.builds {
    var previous: (size: Int, cpu: Double)?
    for size in options.sizes {
        let runs = samples["\(build.label)/\(size)"]!
        let cpu = median(runs.map(\.cpu))
        let growth = previous.map { String(format: "   growth exponent %.2f", log(cpu / $0.cpu) / log(Double(size) / Double($0.size))) } ?? ""
        print("\(build.label) \(String(size).padding(toLength: 4, withPad: " ", startingAt: 0)) lanes: "
              + String(format: "wall %7.1f s   CPU %7.1f s   peak %6.0f MiB", median(runs.map(\.wall)), cpu, runs.map(\.peakMiB).max()!) + growth)
        previous = (size, cpu)
    }
}
let hello = samples["hello"]!
print("anchor: swiftc -Onone on a hello world: " + String(format: "wall %.2f s   CPU %.2f s (median of %d)", median(hello.map(\.wall)), median(hello.map(\.cpu)), hello.count))
print("load average \(loadAverage()) (after)")
