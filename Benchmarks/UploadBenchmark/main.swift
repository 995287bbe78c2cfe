// Uploads 1 GiB to Ceph RGW on 127.0.0.1 with lanes (Content-MD5, and signed SHA-256), `aws s3 cp` and curl's single SigV4 PUT, and
// to nginx WebDAV with lanes and `curl -T`, in one run against the same servers, and prints each
// tool's wall time and peak RSS (from wait4).
//
//   UploadBenchmark --lanes .build/release/lanes-tool [--size-mib 1024] [--runs 2]
import Foundation
import LanesPlatform
import LanesUpload
import LanesHTTP

struct Measurement {
    let tool: String
    let seconds: Double
    let peakRSSMiB: Double
    /// User plus system CPU of the tool itself (not of the server it sends to).
    let cpuSeconds: Double
    let status: Int32
}

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Runs `arguments` with `environment`, output to `log`; measures wall time and the child's peak RSS.
func measure(_ tool: String, _ arguments: [String], environment: [String: String], log: String) -> Measurement {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    let start = monotonicSeconds()
    var pid = pid_t()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
        print("cannot start \(arguments[0])")
        exit(1)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = monotonicSeconds() - start
    argv.forEach { free($0) }
    envp.forEach { free($0) }
    posix_spawn_file_actions_destroy(&actions)
    let used = ProcessUsage(usage)
    return Measurement(tool: tool, seconds: seconds, peakRSSMiB: Double(used.peakResidentBytes) / 1_048_576, cpuSeconds: used.cpuSeconds,
                       status: (status >> 8) & 0xff)
}

func shell(_ command: String) -> Int32 {
    let result = system(command)
    return (result >> 8) & 0xff
}

guard let lanes = argument("--lanes") else {
    print("usage: UploadBenchmark --lanes PATH/lanes-tool [--size-mib N] [--runs N]")
    exit(64)
}
let sizeMiB = Int(argument("--size-mib") ?? "1024") ?? 1024
let runs = Int(argument("--runs") ?? "3") ?? 3
let root = FilePathTools.directory(of: FilePathTools.directory(of: FilePathTools.directory(of: #filePath)))
let work = "\(root)/Benchmarks/.work/upload-\(getpid())"
_ = shell("mkdir -p '\(work)'")
let file = "\(work)/artifact-\(sizeMiB)MiB.bin"
print("writing \(sizeMiB) MiB of random bytes to \(file)")
guard shell("head -c \(sizeMiB)M /dev/urandom > '\(file)'") == 0 else { exit(1) }

print("starting Ceph RGW and nginx (Tests/Servers/test-servers.sh) ...")
let base = "\(work)/servers"
guard shell("'\(root)/Tests/Servers/test-servers.sh' start '\(base)' \(getpid()) > '\(work)/servers.log' 2>&1") == 0 else {
    print("the servers did not start: see \(work)/servers.log (the artifact is removed)")
    _ = shell("rm -f '\(file)'")
    exit(1)
}
var values: [String: String] = [:]
for line in ((try? String(decoding: FileDescriptorReader.read("\(base)/env"), as: UTF8.self)) ?? "").split(separator: "\n") {
    if let equals = line.firstIndex(of: "=") { values[String(line[..<equals])] = String(line[line.index(after: equals)...]) }
}
// A run leaves the artifact and the cluster's data (about 16 GB with its OSD image): never keep them.
defer {
    _ = shell("'\(root)/Tests/Servers/test-servers.sh' stop '\(base)' > /dev/null 2>&1")
    _ = shell("rm -rf '\(work)'")
}
let endpoint = values["S3_ENDPOINT"]!, webDAV = values["WEBDAV_URL"]!, key = values["S3_ACCESS_KEY"]!, secret = values["S3_SECRET_KEY"]!

let client = S3Client(endpoint: try S3Endpoint.resolve(endpoint: endpoint, region: "us-east-1", environment: [:]),
                      credentials: S3Credentials(accessKeyID: key, secretAccessKey: secret), http: HTTPClient())
try client.createBucket("bench")
// A fresh cluster creates its data pools on the first object write, and the pool for multipart
// metadata on the first multipart upload: take both hits before measuring (72 MiB goes in parts).
let warmUp = "\(work)/warm-up.bin"
_ = shell("head -c 72M /dev/urandom > '\(warmUp)'")
_ = try S3Uploader(client: client).upload(file: warmUp, bucket: "bench", key: "warm-up", progress: SilentProgress())

var environment: [String: String] = [:]
for name in ["PATH", "HOME", "LANG"] { if let value = getenv(name) { environment[name] = String(cString: value) } }
environment["AWS_ACCESS_KEY_ID"] = key
environment["AWS_SECRET_ACCESS_KEY"] = secret
environment["AWS_DEFAULT_REGION"] = "us-east-1"
environment["AWS_EC2_METADATA_DISABLED"] = "true"
let log = "\(work)/tools.log"

var results: [Measurement] = []
for run in 1...runs {
    results.append(measure("lanes upload", [lanes, "upload", file, "--to", "s3://bench/lanes-\(run).bin", "--endpoint", endpoint, "--json"],
                           environment: environment, log: log))
    results.append(measure("lanes upload sha256", [lanes, "upload", file, "--to", "s3://bench/lanes-sha-\(run).bin", "--endpoint", endpoint, "--json",
                                                   "--checksum", "sha256"],
                           environment: environment, log: log))
    results.append(measure("aws s3 cp", ["aws", "--endpoint-url", endpoint, "--only-show-errors", "s3", "cp", file, "s3://bench/aws-\(run).bin"],
                           environment: environment, log: log))
    results.append(measure("curl --aws-sigv4", ["curl", "-sS", "-f", "-o", "/dev/null", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "\(key):\(secret)",
                                                "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", "-T", file, "\(endpoint)/bench/curl-\(run).bin"],
                           environment: environment, log: log))
    results.append(measure("lanes upload (dav)", [lanes, "upload", file, "--to", "\(webDAV)/lanes-\(run).bin", "--json"],
                           environment: environment, log: log))
    results.append(measure("curl -T (dav)", ["curl", "-sS", "-f", "-o", "/dev/null", "-T", file, "\(webDAV)/curl-\(run).bin"],
                           environment: environment, log: log))
}
let perRun = results.count / runs

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
func fixed(_ value: Double, _ digits: Int) -> String {
    let scale = Double([1, 10, 100, 1000][digits])
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") { text += String(repeating: "0", count: max(0, digits - text.distance(from: dot, to: text.endIndex) + 1)) }
    return text
}

print("\nupload of \(sizeMiB) MiB to Ceph RGW at \(endpoint) and nginx WebDAV at \(webDAV) (\(runs) runs each; lanes to S3: 64 MiB parts, 4 in flight, Content-MD5 unless sha256)")
// The machine's load decides these figures as much as the tools do: print it.
var loads = [Double](repeating: 0, count: 3)
_ = getloadavg(&loads, 3)
print("load average after the runs: \(loads.map { fixed($0, 2) }.joined(separator: ", "))")
print(pad("tool", 20) + pad("run", 5) + pad("wall s", 10) + pad("MB/s", 10) + pad("CPU s", 8) + pad("peak RSS MiB", 14) + "exit")
for (index, result) in results.enumerated() {
    let rate = Double(sizeMiB) * 1.048576 / result.seconds
    print(pad(result.tool, 20) + pad(String(index / perRun + 1), 5) + pad(fixed(result.seconds, 2), 10) + pad(fixed(rate, 1), 10)
          + pad(fixed(result.cpuSeconds, 2), 8) + pad(fixed(result.peakRSSMiB, 1), 14) + String(result.status))
}
func best(_ tool: String, in results: [Measurement]) -> Measurement { results.filter { $0.tool == tool }.min { $0.seconds < $1.seconds }! }
let lanesBest = best("lanes upload", in: results), awsBest = best("aws s3 cp", in: results), curlBest = best("curl --aws-sigv4", in: results)
func median(_ tool: String, in results: [Measurement]) -> Double {
    let times = results.filter { $0.tool == tool }.map(\.seconds).sorted()
    return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
}
print("\nmedian of each: lanes \(fixed(median("lanes upload", in: results), 2)) s, aws \(fixed(median("aws s3 cp", in: results), 2)) s, curl \(fixed(median("curl --aws-sigv4", in: results), 2)) s; WebDAV: lanes \(fixed(median("lanes upload (dav)", in: results), 2)) s, curl \(fixed(median("curl -T (dav)", in: results), 2)) s")
print("best of each: lanes \(fixed(lanesBest.seconds, 2)) s, aws \(fixed(awsBest.seconds, 2)) s, curl \(fixed(curlBest.seconds, 2)) s")
print("lanes / aws  = \(fixed(lanesBest.seconds / awsBest.seconds, 2))  (target <= 1.00)")
print("lanes / curl = \(fixed(median("lanes upload", in: results) / median("curl --aws-sigv4", in: results), 2)) by medians, S3  (target <= 1.25)")
print("lanes sha256 / curl = \(fixed(median("lanes upload sha256", in: results) / median("curl --aws-sigv4", in: results), 2)) by medians, S3")
print("lanes / curl = \(fixed(median("lanes upload (dav)", in: results) / median("curl -T (dav)", in: results), 2)) by medians, WebDAV  (target <= 1.25)")
print("lanes peak RSS = \(fixed(results.filter { $0.tool.hasPrefix("lanes") }.map(\.peakRSSMiB).max()!, 1)) MiB  (target <= 64)")
if results.contains(where: { $0.status != 0 }) { print("a tool failed: see \(log)"); exit(1) }
_ = shell("rm -f '\(file)'")

enum FilePathTools {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}

enum FileDescriptorReader {
    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }
}
