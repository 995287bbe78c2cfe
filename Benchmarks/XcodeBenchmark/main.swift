import Foundation
import LanesXcode

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

// LanesXcode: read the file, parse, sign every app target's Release configuration, write atomically.
var swiftTimes: [Double] = []
var parseTimes: [Double] = []
var editTimes: [Double] = []
var writeTimes: [Double] = []
var changeCount = 0
for _ in 0..<iterations {
    try original.write(to: target)
    var parse = 0.0
    swiftTimes.append(try seconds {
        let bytes = Array(try Data(contentsOf: target))
        var project: XcodeProject!
        parse = try seconds { project = try XcodeProject(bytes: bytes, path: target.path) }
        let selection = try project.targets(matching: ".*")
        let configurations = try project.configurations(of: selection.matched, .named("Release"))
        var session = ProjectEditSession(project: project)
        var edited: XcodeProject!
        editTimes.append(try seconds {
            try session.applySigning(SigningSettings(style: .manual, team: "ABCDE12345", identity: "Apple Distribution",
                                                     profileName: "match AppStore au.com.shiftyjelly.podcasts",
                                                     profileUUID: "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"), to: configurations)
            edited = try session.finish()
        })
        writeTimes.append(try seconds { try AtomicFile.write(edited.document.bytes, to: target.path) })
        changeCount = session.changes.count
    })
    parseTimes.append(parse)
}

// Python pbxproj: load + save, timed inside the interpreter (start-up excluded).
let pythonRuns = 3
let script = """
import sys, time, shutil
from pbxproj import XcodeProject
times = []
for i in range(\(pythonRuns)):
    shutil.copyfile(sys.argv[1], sys.argv[2])
    start = time.perf_counter()
    project = XcodeProject.load(sys.argv[2])
    project.save()
    times.append(time.perf_counter() - start)
times.sort()
print(times[len(times) // 2])
"""
let python = Process()
python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
python.arguments = ["python3", "-c", script, source.path, work.appendingPathComponent("python.pbxproj").path]
let pipe = Pipe()
python.standardOutput = pipe
var pythonMedian: Double?
do {
    try python.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    if python.terminationStatus == 0 {
        pythonMedian = Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
} catch {
    pythonMedian = nil
}

let swiftMedian = median(swiftTimes)
print("file: \(source.lastPathComponent) (\(original.count) bytes)")
print(String(format: "LanesXcode read+edit+write: median %.2f ms, min %.2f ms over %d runs; %d values changed per run",
             swiftMedian * 1000, swiftTimes.min()! * 1000, iterations, changeCount))
print(String(format: "  phases (medians): parse+model %.2f ms, edit+re-parse %.2f ms, atomic write (temp+fsync+rename) %.2f ms",
             median(parseTimes) * 1000, median(editTimes) * 1000, median(writeTimes) * 1000))
if let pythonMedian {
    print(String(format: "Python pbxproj load+save: median %.0f ms over %d runs", pythonMedian * 1000, pythonRuns))
    print(String(format: "speed-up: %.0fx (target >= 20x); LanesXcode %@ the 30 ms target", pythonMedian / swiftMedian,
                 swiftMedian <= 0.030 ? "meets" : "misses"))
} else {
    print("Python pbxproj not available (python3 -m pip install pbxproj); speed-up not measured")
}
