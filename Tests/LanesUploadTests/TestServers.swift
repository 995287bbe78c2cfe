import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// The real servers the upload tests talk to (nginx WebDAV, Ceph RGW), started once per test
/// process by Tests/Servers/test-servers.sh on free loopback ports; its watchdog stops them by PID
/// when this process exits, however it exits.
struct TestServers: Sendable {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Whether the packages are installed (`make deps-upload-tests` installs them); the suites that
    /// need them are disabled, visibly, when they are not.
    static let installed: Bool = ["/usr/bin/ceph-mon", "/usr/bin/ceph-osd", "/usr/bin/radosgw", "/usr/sbin/nginx",
                                  "/usr/lib/nginx/modules/ngx_http_dav_ext_module.so"].allSatisfy { FileManager.default.fileExists(atPath: $0) }

    let values: [String: String]
    var s3Endpoint: String { values["S3_ENDPOINT"]! }
    var webDAV: String { values["WEBDAV_URL"]! }
    var accessKey: String { values["S3_ACCESS_KEY"]! }
    var secretKey: String { values["S3_SECRET_KEY"]! }

    /// Started on first use; every later caller gets the same servers (or the same failure).
    static let shared: Result<TestServers, ServerStartFailure> = start()

    struct ServerStartFailure: Error, CustomStringConvertible { let description: String }

    static func get() throws -> TestServers { try shared.get() }

    private static func start() -> Result<TestServers, ServerStartFailure> {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-upload-servers-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Output goes to a file, not a pipe: the daemons inherit it and would hold a pipe open.
        let logPath = base.appendingPathComponent("start.log").path
        let script = repositoryRoot.appendingPathComponent("Tests/Servers/test-servers.sh").path
        let status: Int32
        do { status = try Spawn.run([script, "start", base.path, String(getpid())], outputPath: logPath) } catch {
            return .failure(ServerStartFailure(description: "\(error)"))
        }
        guard status == 0, let text = try? String(contentsOf: base.appendingPathComponent("env"), encoding: .utf8) else {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            return .failure(ServerStartFailure(description: "test-servers.sh failed (\(status)): \(log)"))
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return .success(TestServers(values: values))
    }

    /// An environment with the RGW user's keys and nothing else AWS-related.
    var s3Environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey, "HOME": "/nonexistent"]
    }

    func s3Client(endpoint: String? = nil, secret: String? = nil) throws -> S3Client {
        let credentials = S3Credentials(accessKeyID: accessKey, secretAccessKey: secret ?? secretKey)
        let resolved = try S3Endpoint.resolve(endpoint: endpoint ?? s3Endpoint, region: "us-east-1", environment: [:])
        return S3Client(endpoint: resolved, credentials: credentials, http: HTTPClient(retry: RetryPolicy(attempts: 3, baseDelay: 0.05)))
    }

    /// A new bucket for one test, so tests running in parallel never see each other's objects.
    func freshBucket(_ client: S3Client) throws -> String {
        let name = "t-" + UUID().uuidString.lowercased().prefix(18)
        try client.createBucket(String(name))
        return String(name)
    }
}

/// Files for the tests, random content, removed by the caller.
enum TestFiles {
    static func random(size: Int, name: String = "artifact.bin") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            let value = generator.next()
            for shift in 0..<min(8, size - index) { bytes[index + shift] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))) }
        }
        try Data(bytes).write(to: url)
        return url
    }

    static func sha256(_ bytes: [UInt8]) throws -> String {
        String(decoding: try Spawn.output(["sha256sum"], input: bytes).output.prefix(64), as: UTF8.self)
    }

    static func sha256(of url: URL) throws -> String { try sha256(Array(Data(contentsOf: url))) }
}

/// A reporter that remembers what it heard.
final class RecordingProgress: ProgressReporter, @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [Int64] = []
    private(set) var finished: Int64 = -1

    func start(name: String, total: Int64) {}
    func update(completed: Int64, total: Int64) { lock.withLock { updates.append(completed) } }
    func finish(completed: Int64, total: Int64) { lock.withLock { finished = completed } }
    var finishedValue: Int64 { lock.withLock { finished } }
}
