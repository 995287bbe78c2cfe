// Archives of any size in constant memory: a sparse dSYM bundle of N GB (default 6, so past
// Zip64's 4 GiB) zipped by lanes' ZipWriter and by Info-ZIP's `zip`, and the same file packed as a
// tar.gz artifact by lanes' ArtifactPacker and by GNU `tar -czf`, side by side: wall time and peak
// resident memory of each (getrusage of the child). The sparse file costs no disk; the archives of
// its zeros are a few megabytes. The outputs are then checked by readers other than lanes.
// Usage: ArchiveBenchmark [--gigabytes N] [--work DIR]
import Foundation
import LanesBuild
import LanesPlatform

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

// The child side: one archive job in its own process, so its peak memory is its own.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--child" {
    let job = CommandLine.arguments[2]
    do {
        if job == "zip" {
            try ZipWriter.zip(folder: CommandLine.arguments[3], rootName: "Big.app.dSYM", to: CommandLine.arguments[4])
        } else {
            _ = try ArtifactPacker.pack(name: "big", version: "1", commit: "c",
                                        entries: [ArtifactEntry(sourcePath: CommandLine.arguments[3], archiveName: "big/bin/big")],
                                        outputDirectory: CommandLine.arguments[4], buildTimeSecondsSince1970: 0)
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}

struct Measurement {
    let tool: String
    let seconds: Double
    let peakRSSMiB: Double
    let status: Int32
}

/// Runs a program, its output to /dev/null; wall time and the child's peak RSS from wait4.
func measure(_ tool: String, _ arguments: [String]) -> Measurement {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
        return Measurement(tool: tool, seconds: 0, peakRSSMiB: 0, status: 127)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Measurement(tool: tool, seconds: seconds, peakRSSMiB: Double(ProcessUsage(usage).peakResidentBytes) / 1_048_576, status: (status >> 8) & 0xff)
}

func fileSize(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1 }

func run(_ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return "cannot run \(arguments[0])" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

let gigabytes = Double(argument("--gigabytes") ?? "6") ?? 6
let size = Int(gigabytes * 1e9)
let work = argument("--work") ?? FileManager.default.currentDirectoryPath + "/Benchmarks/.work/archive"
try? FileManager.default.removeItem(atPath: work)
let bundle = work + "/Big.app.dSYM"
let dwarf = bundle + "/Contents/Resources/DWARF"
try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: bundle + "/Contents/Info.plist"))
let big = dwarf + "/Big"
guard FileManager.default.createFile(atPath: big, contents: nil), truncate(big, off_t(size)) == 0 else {
    fatalError("cannot make the sparse file \(big)")
}
defer { try? FileManager.default.removeItem(atPath: work) }
let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]

print(String(format: "a sparse %.1f GB file (a dSYM bundle's DWARF), zipped and packed as tar.gz", Double(size) / 1e9))
let results = [
    measure("lanes ZipWriter", [me, "--child", "zip", bundle, work + "/lanes.zip"]),
    // `exec`: the shell becomes zip, so the rusage is zip's.
    measure("zip -r (Info-ZIP)", ["sh", "-c", "cd \"$0\" && exec zip -q -r -6 zip.zip Big.app.dSYM", work]),
    measure("lanes ArtifactPacker", [me, "--child", "pack", big, work + "/lanes-pack"]),
    measure("tar -czf (GNU tar)", ["tar", "-czf", work + "/tar.tar.gz", "-C", dwarf, "Big"]),
]
let outputs = [work + "/lanes.zip", work + "/zip.zip", work + "/lanes-pack/big-1.tar.gz", work + "/tar.tar.gz"]
for (result, output) in zip(results, outputs) {
    let rate = Double(size) / 1e6 / max(result.seconds, 1e-9)
    let label = result.tool.padding(toLength: 22, withPad: " ", startingAt: 0)
    print("  \(label)" + String(format: " %7.1f s  %7.0f MB/s  peak RSS %7.1f MiB  output %9d bytes",
                                 result.seconds, rate, result.peakRSSMiB, fileSize(output))
          + (result.status == 0 ? "" : "  (exit \(result.status))"))
}
// Readers other than lanes check what lanes wrote (listing only: a full CRC pass is another minute).
print("checks of lanes' output:")
print("  python zipfile: " + run(["python3", "-c", """
    import sys, zipfile
    z = zipfile.ZipFile(sys.argv[1])
    i = z.getinfo('Big.app.dSYM/Contents/Resources/DWARF/Big')
    print('file_size', i.file_size, 'zip64' if i.extract_version >= 45 else 'no zip64', 'entries', len(z.infolist()))
    """, work + "/lanes.zip"]).trimmingCharacters(in: .whitespacesAndNewlines))
print("  python tarfile: " + run(["python3", "-c", """
    import sys, tarfile
    with tarfile.open(sys.argv[1], 'r:gz') as t:
        m = t.next()
        print(m.name, m.size, sorted(m.pax_headers))
    """, work + "/lanes-pack/big-1.tar.gz"]).trimmingCharacters(in: .whitespacesAndNewlines))
print("  unzip -l: " + (run(["unzip", "-l", work + "/lanes.zip"]).split(separator: "\n").last.map(String.init) ?? "").trimmingCharacters(in: .whitespaces))
