import Foundation
import LanesXcode
import LanesPlatform

// Read + edit + write of the largest corpus project (pocket-casts, ~1 MB) with LanesXcode, and the
// Python `pbxproj` package's load + save of the same file, timed in the same run.
// Usage: swift run -c release XcodeBenchmark [iterations]   (LANES_SHARED_DIR overrides ../shared)

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shared = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
    ?? repositoryRoot.appendingPathComponent("../shared").standardizedFileURL
let source = shared.appendingPathComponent("xcode/corpus/Automattic__pocket-casts-ios__podcasts.pbxproj")
guard let original = FileManager.default.contents(atPath: source.path) else {
    print("SKIPPED: \(source.path) not found; set LANES_SHARED_DIR to the shared data folder")
    exit(0)
}
let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 30
let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-xcode-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
let target = work.appendingPathComponent("project.pbxproj")

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// One read + edit + write, as `lanes xcode provision` or a step does it.
func editOnce() throws -> (read: Double, parse: Double, edit: Double, write: Double, changes: Int) {
    var bytes: [UInt8] = []
    let read = try seconds { bytes = Array(try Data(contentsOf: target)) }
    var project: XcodeProject!
    let parse = try seconds { project = try XcodeProject(bytes: bytes, path: target.path) }
    var edited: [UInt8] = []
    var changes = 0
    let edit = try seconds {
        let configurations = try project.configurations(of: project.targets(matching: ".*").matched, .named("Release"))
        var session = ProjectEditSession(project: project)
        try session.applySigning(SigningSettings(style: .manual, team: "ABCDE12345", identity: "Apple Distribution",
                                                 profileName: "match AppStore au.com.shiftyjelly.podcasts",
                                                 profileUUID: "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"), to: configurations)
        edited = try session.finishedBytes()
        changes = session.changes.count
    }
    let write = try seconds { try AtomicFile.write(edited, to: target.path) }
    return (read, parse, edit, write, changes)
}

/// CPU seconds (user + system) this process has used: less sensitive than wall time to other
/// processes competing for the two cores.
func cpuSeconds() -> Double { ProcessUsage.current().cpuSeconds }

struct Run {
    var cpu = 0.0
    var totals: [Double] = []
    var phases: [(read: Double, parse: Double, edit: Double, write: Double, changes: Int)] = []

    mutating func measure(_ iterations: Int, restoring original: Data) throws {
        for _ in 0..<iterations {
            try original.write(to: target)
            let cpuStart = cpuSeconds()
            defer { cpu += cpuSeconds() - cpuStart }
            var phase: (read: Double, parse: Double, edit: Double, write: Double, changes: Int)!
            totals.append(try seconds { phase = try editOnce() })
            phases.append(phase)
        }
    }

    func report(_ title: String) {
        print(String(format: "%@: median %.2f ms, min %.2f ms, CPU %.2f ms per run over %d runs; %d values changed per run", title,
                     median(totals) * 1000, totals.min()! * 1000, cpu / Double(totals.count) * 1000, totals.count, phases[0].changes))
        print(String(format: "  phases (medians): read %.2f ms, parse+model %.2f ms, edit %.2f ms, atomic write (temp+fsync+rename) %.2f ms",
                     median(phases.map(\.read)) * 1000, median(phases.map(\.parse)) * 1000,
                     median(phases.map(\.edit)) * 1000, median(phases.map(\.write)) * 1000))
    }
}

// LanesXcode, as a loop in one process: glibc gives the freed heap back to the kernel after every
// iteration (brk shrink + TLB shootdown), which a single lanes run, parsing once, never pays.
var loop = Run()
try loop.measure(iterations, restoring: original)
// The same with the heap kept between iterations, closer to what one lanes process does (on Darwin
// the allocator keeps it by itself, and the two runs measure the same).
let allocatorSetting = AllocatorTuning.keepFreedMemory()
var kept = Run()
try kept.measure(iterations, restoring: original)

// Python pbxproj: load + save, timed inside the interpreter (start-up excluded).
let pythonRuns = 5
let script = """
import sys, time, shutil
from pbxproj import XcodeProject
times, cpu = [], []
for i in range(\(pythonRuns)):
    shutil.copyfile(sys.argv[1], sys.argv[2])
    start, start_cpu = time.perf_counter(), time.process_time()
    project = XcodeProject.load(sys.argv[2])
    project.save()
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
times.sort()
cpu.sort()
print(times[len(times) // 2], cpu[len(cpu) // 2])
"""
let python = Process()
python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
python.arguments = ["python3", "-c", script, source.path, work.appendingPathComponent("python.pbxproj").path]
let pipe = Pipe()
python.standardOutput = pipe
var pythonMedian: Double?
var pythonCPU: Double?
do {
    try python.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    if python.terminationStatus == 0 {
        let figures = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        if figures.count == 2 { (pythonMedian, pythonCPU) = (figures[0], figures[1]) }
    }
} catch {
    pythonMedian = nil
}

let swiftMedian = median(kept.totals)
print("file: \(source.lastPathComponent) (\(original.count) bytes)")
loop.report("LanesXcode read+edit+write, default malloc")
kept.report("LanesXcode read+edit+write, heap kept between runs (\(allocatorSetting ?? "the allocator's default"))")
if let pythonMedian, let pythonCPU {
    let swiftCPU = kept.cpu / Double(kept.totals.count)
    print(String(format: "Python pbxproj load+save: median %.0f ms wall, %.0f ms CPU over %d runs", pythonMedian * 1000, pythonCPU * 1000, pythonRuns))
    print(String(format: "speed-up: %.0fx wall (medians), %.0fx CPU (target >= 20x); LanesXcode median %.2f ms %@ the 30 ms target",
                 pythonMedian / swiftMedian, pythonCPU / swiftCPU, swiftMedian * 1000, swiftMedian <= 0.030 ? "meets" : "misses"))
} else {
    print("Python pbxproj not available (python3 -m pip install pbxproj); speed-up not measured")
}
