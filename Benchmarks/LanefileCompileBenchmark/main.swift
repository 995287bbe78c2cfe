// How long the driver takes to compile a Lanefile, for several lanes builds side by side in one run
// (for example before and after a change to the modules a Lanefile imports). Each round runs every
// build once, in turn, so machine load falls on all of them alike:
//   cold: `lanes list` with an empty cache (compile + link + one list);
//   warm: `lanes list` with the runner cached, to subtract what is not the compile.
// Usage: LanefileCompileBenchmark --lanes LABEL=PATH [--lanes LABEL=PATH ...] [--lanefile PATH] [--runs N]
import Foundation

struct Build {
    let label: String
    let lanes: String
}

struct Options {
    var builds: [Build] = []
    var lanefile = FileManager.default.currentDirectoryPath + "/Lanefile.swift"
    var runs = 5

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes":
                let value = iterator.next() ?? ""
                guard let equals = value.firstIndex(of: "=") else { fail("--lanes takes LABEL=PATH, got '\(value)'") }
                builds.append(Build(label: String(value[..<equals]),
                                    lanes: URL(fileURLWithPath: String(value[value.index(after: equals)...])).standardizedFileURL.path))
            case "--lanefile": lanefile = URL(fileURLWithPath: iterator.next() ?? lanefile).standardizedFileURL.path
            case "--runs": runs = max(1, Int(iterator.next() ?? "") ?? runs)
            default: fail("unknown argument \(argument)")
            }
        }
        if builds.isEmpty { fail("name at least one build with --lanes LABEL=PATH") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\nusage: LanefileCompileBenchmark --lanes LABEL=PATH [--lanes LABEL=PATH ...] [--lanefile PATH] [--runs N]\n".utf8))
    exit(64)
}

/// Runs `lanes list` for the Lanefile with the given cache; returns the wall time in milliseconds.
func timedList(_ build: Build, lanefile: String, cache: URL) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: build.lanes)
    process.arguments = ["list"]  // found upwards from the Lanefile's folder, as a user runs it
    process.currentDirectoryURL = URL(fileURLWithPath: lanefile).deletingLastPathComponent()
    var environment = ProcessInfo.processInfo.environment
    environment["LANES_CACHE_DIR"] = cache.path
    environment["NO_COLOR"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    let start = ContinuousClock.now
    try process.run()
    let errorText = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    guard process.terminationStatus == 0 else {
        fail("\(build.label): lanes list exited \(process.terminationStatus): \(String(decoding: errorText, as: UTF8.self))")
    }
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-compile-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: work) }

print("Lanefile compile benchmark: \(options.lanefile), \(options.runs) rounds, \(ProcessInfo.processInfo.activeProcessorCount) cores")
var cold: [String: [Double]] = [:], warm: [String: [Double]] = [:]
for round in 0..<options.runs {
    // Alternate the order every round, so neither build always runs right after the other.
    let order = round % 2 == 0 ? options.builds : options.builds.reversed()
    for build in order {
        let cache = work.appendingPathComponent("\(build.label)-\(round)")
        cold[build.label, default: []].append(try timedList(build, lanefile: options.lanefile, cache: cache))
        warm[build.label, default: []].append(try timedList(build, lanefile: options.lanefile, cache: cache))
        try? FileManager.default.removeItem(at: cache)
    }
}
for build in options.builds {
    let coldMedian = median(cold[build.label]!), warmMedian = median(warm[build.label]!)
    let line = build.label.padding(toLength: 12, withPad: " ", startingAt: 0)
        + String(format: "cold list median %8.1f ms (min %8.1f)   warm list median %6.1f ms   compile ≈ %8.1f ms",
                 coldMedian, cold[build.label]!.min()!, warmMedian, coldMedian - warmMedian)
    print(line + "   \(build.lanes)")
}
