// Warm start with and without a package dependency, side by side in one run: two projects with the
// same no-op lane, one of which depends on a local step package through lanes/Package.swift and
// registers its step. Each is compiled once, then `lanes noop` runs alternately in both.
// Targets (issue 26): with the package, median ≤ 25 ms and ≤ 1.5x the median without.
// Usage: swift run -c release PackageStartupBenchmark [--lanes PATH] [--runs N]
import Foundation
import LanesPlatform

var lanes = FileManager.default.currentDirectoryPath + "/.build/release/lanes"
var runs = 60
var iterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = iterator.next() {
    switch argument {
    case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? lanes).standardizedFileURL.path
    case "--runs": runs = Int(iterator.next() ?? "") ?? runs
    default: fatalError("unknown argument \(argument); usage: PackageStartupBenchmark [--lanes PATH] [--runs N]")
    }
}

func write(_ text: String, _ path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// Wall time and CPU time (user + system, which a busy machine inflates less) of one run in
/// milliseconds, output discarded; posix_spawn, as Process adds its own cost.
func timed(_ arguments: [String], in directory: String, environment: [String: String]) -> (wall: Double, cpu: Double) {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    precondition(chdir(directory) == 0, "cannot enter \(directory)")
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    precondition(posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0, "cannot start \(arguments[0])")
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = clock.now - start
    precondition(status == 0, "\(arguments.joined(separator: " ")) in \(directory) failed (wait status \(status))")
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    return (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, cpu)
}

func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

let root = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-package-bench-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: root) }
try write("""
    // swift-tools-version: 5.9
    import PackageDescription
    let package = Package(name: "BenchSteps", products: [.library(name: "BenchSteps", targets: ["BenchSteps"])],
                          targets: [.target(name: "BenchSteps")])

    """, root + "/BenchSteps/Package.swift")
try write("""
    import Lanes
    public struct Hello: Step {
        public static let definition = StepDefinition(id: "bench_hello", summary: "Says hello", category: .shell, examples: [])
        @StepOption("name", "Who", env: "BENCH_NAME") var name: String?
        public init() {}
        public func run(in context: StepContext) async throws { context.log.line("hello \\(name ?? "")") }
    }
    public let steps: [any Step.Type] = [Hello.self]

    """, root + "/BenchSteps/Sources/BenchSteps/Hello.swift")
try write("import Lanes\n\nlet lanes = Lanefile {\n    Lane(\"noop\", \"Nothing\") {}\n}\n", root + "/plain/Lanefile.swift")
try write("import Lanes\nimport BenchSteps\n\nlet lanes = Lanefile(steps: BenchSteps.steps) {\n    Lane(\"noop\", \"Nothing\") {}\n}\n",
          root + "/package/Lanefile.swift")
try write("""
    // swift-tools-version: 5.9
    import PackageDescription
    let package = Package(name: "Lanefile", dependencies: [.package(path: "../../BenchSteps")])

    """, root + "/package/lanes/Package.swift")

var environment = ProcessInfo.processInfo.environment
environment["LANES_CACHE_DIR"] = root + "/cache"
environment["NO_COLOR"] = "1"
let projects = ["plain", "package"]
print("compiling both projects once (the package one resolves and builds with SwiftPM) ...")
for project in projects { _ = timed([lanes, "noop"], in: root + "/" + project, environment: environment) }
var wall: [String: [Double]] = ["plain": [], "package": []]
var cpu: [String: [Double]] = ["plain": [], "package": []]
for _ in 0..<runs {
    for project in projects {
        let run = timed([lanes, "noop"], in: root + "/" + project, environment: environment)
        wall[project]!.append(run.wall)
        cpu[project]!.append(run.cpu)
    }
}
print("warm `lanes noop`, \(runs) runs each, alternating:")
for (project, label) in [("plain", "without packages"), ("package", "with a package  ")] {
    print(String(format: "  %@   wall median %6.2f ms  p90 %6.2f ms   cpu median %6.2f ms", label,
                 percentile(wall[project]!, 0.5), percentile(wall[project]!, 0.9), percentile(cpu[project]!, 0.5)))
}
let ratio = percentile(wall["package"]!, 0.5) / percentile(wall["plain"]!, 0.5)
let cpuRatio = percentile(cpu["package"]!, 0.5) / percentile(cpu["plain"]!, 0.5)
print(String(format: "  ratio wall %.2fx, cpu %.2fx (target ≤ 1.5x); with a package the median is %@ 25 ms", ratio, cpuRatio,
             percentile(wall["package"]!, 0.5) <= 25 ? "≤" : ">"))
