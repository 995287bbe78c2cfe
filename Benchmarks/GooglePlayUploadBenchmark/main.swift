// Uploads a sparse Android App Bundle of 32 MiB and of 2 GiB to the local Google Play
// (Tests/Servers/fake_google_play.py on 127.0.0.1) with `lanes run upload_to_play_store` (Google's
// resumable protocol, 8 MiB chunks), and the same bytes with `curl -T` into a resumable session as
// the anchor, in one run; prints each tool's wall time, CPU and peak RSS (from wait4), and fails
// unless lanes' peak memory for 2 GiB stays within 16 MiB of its peak for 32 MiB (constant memory)
// and Google Play received every byte (SHA-256 of what it kept against sha256sum's).
//
//   GooglePlayUploadBenchmark --lanes .build/release/lanes-tool [--size-mib 2048] [--small-mib 32]
import Foundation
import LanesGooglePlay
import LanesPlatform
import LanesHTTP
import LanesUpload

struct Measurement {
    let tool: String
    let sizeMiB: Int
    let seconds: Double
    let peakRSSMiB: Double
    let cpuSeconds: Double
    let status: Int32
}

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    print("GooglePlayUploadBenchmark: \(message)")
    exit(1)
}

/// Runs `arguments`, output to `log`; wall time and the child's peak RSS and CPU from wait4.
func measure(_ tool: String, sizeMiB: Int, _ arguments: [String], environment: [String: String], log: String) -> Measurement {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
    let start = monotonicSeconds()
    var pid = pid_t()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { fail("cannot start \(arguments[0])") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let used = ProcessUsage(usage)
    return Measurement(tool: tool, sizeMiB: sizeMiB, seconds: monotonicSeconds() - start, peakRSSMiB: Double(used.peakResidentBytes) / 1_048_576,
                       cpuSeconds: used.cpuSeconds, status: (status >> 8) & 0xff)
}

func run(_ arguments: [String], log: String) -> Int32 {
    measure(arguments[0], sizeMiB: 0, arguments, environment: ProcessInfo.processInfo.environment, log: log).status
}

guard let lanes = argument("--lanes") else {
    print("usage: GooglePlayUploadBenchmark --lanes PATH/lanes-tool [--size-mib 2048] [--small-mib 32]")
    exit(64)
}
let bigMiB = Int(argument("--size-mib") ?? "2048") ?? 2048
let smallMiB = Int(argument("--small-mib") ?? "32") ?? 32
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let sharedFolder = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
    ?? root.deletingLastPathComponent().appendingPathComponent("shared")
let discovery = sharedFolder.appendingPathComponent("googleplay/androidpublisher.v3.json").path
let fixtures = root.appendingPathComponent("Tests/LanesGooglePlayTests/Fixtures").path
guard FileManager.default.fileExists(atPath: discovery) else { fail("\(discovery) is missing") }

let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-play-bench-\(getpid())").path
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
let log = work + "/bench.log"

// The local Google Play: it exits when this process does.
var serverPID = pid_t()
do {
    let script: String = root.appendingPathComponent("Tests/Servers/fake_google_play.py").path
    let words: [String] = ["python3", script, work + "/server", discovery, fixtures + "/aapt_xml.proto", String(getpid())]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    guard posix_spawnp(&serverPID, "python3", nil, nil, argv, envp) == 0 else { fail("cannot start python3") }
}
defer { kill(serverPID, SIGTERM) }
var port = 0
for _ in 0..<600 where port == 0 {
    port = Int((try? String(contentsOfFile: work + "/server/port", encoding: .utf8)) ?? "") ?? 0
    usleep(50_000)
}
guard port > 0 else { fail("the local Google Play did not start") }
let base = "http://127.0.0.1:\(port)"
let keyPath = work + "/server/service-account.json"

/// A real bundle of `mib` MiB, sparse after its manifest, and its SHA-256 (sha256sum's).
func bundle(mib: Int, code: Int) -> (path: String, sha256: String) {
    let folder = work + "/build-\(code)"
    let status = run(["env", "GRADLEW_SPARSE_BYTES=\(mib << 20)", fixtures + "/gradlew", "-p", folder, "-PversionCode=\(code)", "bundleRelease"], log: log)
    guard status == 0 else { fail("the stand-in gradlew failed (see \(log))") }
    let path = folder + "/app/build/outputs/bundle/release/app-release.aab"
    let sums = work + "/sum-\(code)"
    _ = run(["sh", "-c", "sha256sum '\(path)' > '\(sums)'"], log: log)
    return (path, String(((try? String(contentsOfFile: sums, encoding: .utf8)) ?? "").prefix(64)))
}

func lastUpload() -> (sha256: String, size: Int) {
    let response = try? HTTPClient().send(HTTPRequest(method: "GET", url: HTTPURL(base + "/_log")!))
    let document = (try? JSONSerialization.jsonObject(with: Data(response?.body ?? []))) as? [String: Any] ?? [:]
    let upload = (document["uploads"] as? [[String: Any]])?.last ?? [:]
    return (upload["sha256"] as? String ?? "", upload["size"] as? Int ?? 0)
}

/// curl -T into a resumable session the benchmark starts itself (token, edit, session) with lanes' HTTP client.
func curlAnchor(_ file: (path: String, sha256: String), mib: Int) -> Measurement {
    let keyText = (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? ""
    guard let account = try? GoogleServiceAccount.decode(keyText, variable: "key", inline: false, for: "bench", hint: ""),
          let assertion = try? account.assertion(audience: account.tokenURI ?? "", scope: GooglePlayClient.scope, now: Int(Date().timeIntervalSince1970)) else {
        fail("cannot sign the assertion")
    }
    let http = HTTPClient()
    let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
    guard let tokenAnswer = try? http.send(HTTPRequest(method: "POST", url: HTTPURL(base + "/token")!, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                       body: .bytes(Array(form.utf8)))),
          let token = ((try? JSONSerialization.jsonObject(with: Data(tokenAnswer.body))) as? [String: Any])?["access_token"] as? String else { fail("no token") }
    let auth = ("Authorization", "Bearer \(token)")
    let apps = base + "/androidpublisher/v3/applications/com.example.brewer/edits"
    guard let edit = try? http.send(HTTPRequest(method: "POST", url: HTTPURL(apps)!, headers: [auth, ("Content-Type", "application/json")], body: .bytes(Array("{}".utf8)))),
          let editID = ((try? JSONSerialization.jsonObject(with: Data(edit.body))) as? [String: Any])?["id"] as? String else { fail("no edit") }
    let size = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
    guard let session = try? http.send(HTTPRequest(method: "POST", url: HTTPURL(base + "/resumable/upload/androidpublisher/v3/applications/com.example.brewer/edits/\(editID)/bundles?uploadType=resumable")!,
                                                   headers: [auth, ("X-Upload-Content-Type", "application/octet-stream"), ("X-Upload-Content-Length", String(size))])),
          let location = session.header("Location") else { fail("no session") }
    let headers = work + "/curl-headers"
    try? "Authorization: Bearer \(token)\nContent-Range: bytes 0-\(size - 1)/\(size)\nContent-Type: application/octet-stream\n"
        .write(toFile: headers, atomically: true, encoding: .utf8)
    return measure("curl -T", sizeMiB: mib, ["curl", "-sS", "-f", "-o", "/dev/null", "-T", file.path, "-H", "@\(headers)", location],
                   environment: ProcessInfo.processInfo.environment, log: log)
}

var results: [Measurement] = []
var failures: [String] = []
var code = 1000
for mib in [smallMiB, bigMiB] {
    code += 1
    let file = bundle(mib: mib, code: code)
    // The anchor first, into an edit never committed: Google refuses a version code once a committed edit holds it.
    let anchor = curlAnchor(file, mib: mib)
    results.append(anchor)
    if anchor.status != 0 { failures.append("curl exited \(anchor.status) for \(mib) MiB") }
    var environment = ProcessInfo.processInfo.environment
    environment["SUPPLY_JSON_KEY"] = keyPath
    environment["LANES_GOOGLE_PLAY_API_URL"] = base
    environment["NO_COLOR"] = "1"
    let measured = measure("lanes upload_to_play_store", sizeMiB: mib,
                           [lanes, "run", "upload_to_play_store", "aab:\(file.path)", "track:internal", "package_name:com.example.brewer"],
                           environment: environment, log: log)
    results.append(measured)
    let received = lastUpload()
    if measured.status != 0 { failures.append("lanes exited \(measured.status) for \(mib) MiB (see \(log))") }
    if received.sha256 != file.sha256 { failures.append("Google Play kept other bytes than the \(mib) MiB file's (\(received.sha256) vs \(file.sha256))") }
}

print("tool                          size      wall s   MiB/s   CPU s   peak RSS MiB")
for result in results {
    let rate = result.seconds > 0 ? Double(result.sizeMiB) / result.seconds : 0
    print(result.tool.padding(toLength: 28, withPad: " ", startingAt: 0)
          + String(format: "  %5d MiB  %7.2f  %6.0f  %6.2f  %8.1f", result.sizeMiB, result.seconds, rate, result.cpuSeconds, result.peakRSSMiB))
}
let lanesRuns = results.filter { $0.tool.hasPrefix("lanes") }
if lanesRuns.count == 2 {
    let growth = lanesRuns[1].peakRSSMiB - lanesRuns[0].peakRSSMiB
    print(String(format: "lanes' peak RSS grew %.1f MiB from %d MiB to %d MiB (limit 16 MiB)", growth, smallMiB, bigMiB))
    if growth > 16 { failures.append("memory grows with the file: +\(growth) MiB") }
}
if !failures.isEmpty { fail(failures.joined(separator: "; ")) }
