// Git benchmark: `lanes git info --json` against `git rev-list --count HEAD` + `git status
// --porcelain` + `git describe --tags --abbrev=0` (what it prints, from the git CLI) on a 100,000-commit repository with a few thousand files (built once under
// Benchmarks/.work/, gitignored). Prints median and best wall times of each, end to end.
// Usage: swift run -c release GitBenchmark [--lanes PATH] [--runs N] [--rebuild]
import Foundation

struct Options {
    var lanes = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lanes").path
    var runs = 9
    var rebuild = false

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? lanes).standardizedFileURL.path
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            case "--rebuild": rebuild = true
            default: throw BenchmarkError("unknown argument \(argument); usage: GitBenchmark [--lanes PATH] [--runs N] [--rebuild]")
            }
        }
    }
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let options = try Options(Array(CommandLine.arguments.dropFirst()))
let builder = RepositoryBuilder(directory: packageRoot.appendingPathComponent("Benchmarks/.work/git-100k"),
                                commits: 100_000, files: 4_000)
if options.rebuild || !builder.isBuilt {
    print("building the benchmark repository (once) in \(builder.directory.path) ...")
    let seconds = try Stopwatch.measure { try builder.build() } / 1000
    print(String(format: "  built in %.1f s", seconds))
}
guard FileManager.default.isExecutableFile(atPath: options.lanes) else {
    throw BenchmarkError("no lanes binary at \(options.lanes); build it first: swift build -c release --product lanes --product lanes-tool")
}

let repository = builder.directory
let lanesInfo = [options.lanes, "git", "info", "--json", "--path", repository.path]
let gitCount = ["/usr/bin/git", "rev-list", "--count", "HEAD"]
let gitStatus = ["/usr/bin/git", "status", "--porcelain"]
let gitDescribe = ["/usr/bin/git", "describe", "--tags", "--abbrev=0"]

// The two tools must agree before their times mean anything.
let info = try JSONSerialization.jsonObject(with: try Capture.output(lanesInfo, in: repository)) as? [String: Any] ?? [:]
let gitCommits = Int(String(decoding: try Capture.output(gitCount, in: repository), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines))
let porcelain = String(decoding: try Capture.output(gitStatus, in: repository), as: UTF8.self)
    .split(separator: "\n").map { String($0.dropFirst(3)) }.sorted()
let lanesCommits = info["commitCount"] as? Int
let lanesChanged = (info["changedFiles"] as? [String] ?? []).sorted()
print("repository: \(repository.path)")
print("  commits: lanes \(lanesCommits.map(String.init) ?? "null"), git \(gitCommits.map(String.init) ?? "?")")
let gitTag = String(decoding: try Capture.output(gitDescribe, in: repository), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
print("  changed paths: lanes \(lanesChanged.count), git \(porcelain.count); last tag: lanes \(info["lastTag"] as? String ?? "none"), git \(gitTag)")
guard lanesCommits == gitCommits, lanesChanged == porcelain, info["lastTag"] as? String == gitTag else {
    throw BenchmarkError("lanes and git disagree: \(lanesChanged) vs \(porcelain)")
}

// Alternate the two so that machine noise (two shared cores) hits both alike.
var lanesTimes: [Stopwatch.Times] = []
var gitTimes: [Stopwatch.Times] = []
var gitCountTimes: [Stopwatch.Times] = []
var gitDescribeTimes: [Stopwatch.Times] = []
_ = try Stopwatch.run(lanesInfo, in: repository)
_ = try Stopwatch.run(gitCount, in: repository)
_ = try Stopwatch.run(gitStatus, in: repository)
_ = try Stopwatch.run(gitDescribe, in: repository)
for _ in 0..<options.runs {
    lanesTimes.append(try Stopwatch.run(lanesInfo, in: repository))
    let count = try Stopwatch.run(gitCount, in: repository)
    let describe = try Stopwatch.run(gitDescribe, in: repository)
    gitCountTimes.append(count)
    gitDescribeTimes.append(describe)
    gitTimes.append(count + describe + (try Stopwatch.run(gitStatus, in: repository)))
}

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
func line(_ label: String, _ samples: [Double]) -> String {
    label.padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(format: "median %7.1f ms   best %7.1f ms", median(samples), samples.min() ?? 0)
}
print("\(options.runs) runs each, end to end (wall time, then CPU time user+system):")
print(line("  lanes git info --json", lanesTimes.map(\.wall)))
print(line("  git rev-list --count + status + describe", gitTimes.map(\.wall)))
print(line("    of which git rev-list --count HEAD", gitCountTimes.map(\.wall)))
print(line("    of which git describe --tags --abbrev=0", gitDescribeTimes.map(\.wall)))
print(line("  lanes git info --json (CPU)", lanesTimes.map(\.cpu)))
print(line("  git rev-list + status + describe (CPU)", gitTimes.map(\.cpu)))
print("in-process parts of lanes git info (LanesGit called directly):")
for (label, samples) in try Breakdown.measure(repository.path, runs: 3) {
    print(line("  \(label)", samples))
}
let wallRatio = median(lanesTimes.map(\.wall)) / median(gitTimes.map(\.wall))
let cpuRatio = median(lanesTimes.map(\.cpu)) / median(gitTimes.map(\.cpu))
print(String(format: "lanes / git (medians): wall %.2f, CPU %.2f — %@", wallRatio, cpuRatio,
             max(wallRatio, cpuRatio) <= 1 ? "lanes is not slower" : "LANES IS SLOWER"))
if max(wallRatio, cpuRatio) > 1 { exit(1) }
