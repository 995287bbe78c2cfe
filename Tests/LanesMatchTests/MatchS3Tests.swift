import Foundation
import Lanes
import LanesMatch
import LanesPlatform
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP

/// Ceph RGW started once for this test process by Tests/Servers/test-servers.sh (its watchdog
/// stops it by PID when this process exits).
enum MatchTestServers {
    static let installed = ["/usr/bin/ceph-mon", "/usr/bin/ceph-osd", "/usr/bin/radosgw"].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    static let shared: Result<[String: String], FixtureError> = start()

    private static func start() -> Result<[String: String], FixtureError> {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-match-servers-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: MatchFixture.testsDirectory).deletingLastPathComponent().appendingPathComponent("Servers/test-servers.sh").path
        let log = base + "/start.log"
        // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit never returned when
        // another test's child ended at the same moment (the hang that kept this suite disabled).
        var child = ChildProcess([script, "start", base, String(getpid())])
        // A file, not a pipe: the daemons inherit it and would hold a pipe open.
        child.standardOutput = .appending(path: log, mode: 0o600)
        child.standardError = .standardOutput
        let status: WaitStatus
        do { status = ChildProcess.wait(try child.start()) } catch { return .failure(FixtureError("\(error)")) }
        guard status.exitCode == 0, let text = try? String(contentsOfFile: base + "/env", encoding: .utf8) else {
            return .failure(FixtureError("test-servers.sh failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"))
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return .success(values)
    }
}

@Suite("match storage on S3 (Ceph RGW)", .timeLimit(.minutes(10)),
       .enabled(if: MatchTestServers.installed, "Ceph RGW is not installed (make deps-upload-tests)"))
struct MatchS3Tests {
    @Test func syncReadsTheTeamFolderAndImportWritesWhatPythonDecrypts() async throws {
        let servers = try MatchTestServers.shared.get()
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let credentials = S3Credentials(accessKeyID: servers["S3_ACCESS_KEY"]!, secretAccessKey: servers["S3_SECRET_KEY"]!)
        let client = S3Client(endpoint: try S3Endpoint.resolve(endpoint: servers["S3_ENDPOINT"]!, region: "us-east-1", environment: [:]),
                              credentials: credentials, http: HTTPClient())
        let bucket = "m-" + UUID().uuidString.lowercased().prefix(18)
        try client.createBucket(String(bucket))
        // fastlane's S3 layout: <s3_object_prefix>/<team_id>/ then the storage, uploaded by another S3
        // client (the AWS CLI, as fastlane's AWS SDK would) so lanes' reading is checked against it.
        try aws(["s3", "cp", "--recursive", "--only-show-errors", fixture.storage, "s3://\(bucket)/match/ABCDE12345/"], servers)
        // Another team's folder beside it, which team_id keeps out.
        try client.putObject(bucket: String(bucket), key: "match/OTHERTEAM1/certs/distribution/X.cer", bytes: Array("garbage".utf8))

        let environment = ["MATCH_PASSWORD": fixture.password, "MATCH_S3_ACCESS_KEY": credentials.accessKeyID,
                           "MATCH_S3_SECRET_ACCESS_KEY": servers["S3_SECRET_KEY"]!, "AWS_ENDPOINT_URL": servers["S3_ENDPOINT"]!,
                           "HOME": "/nonexistent"]
        let harness = try MatchHarness(environment: environment, project: fixture.temp.path)
        defer { harness.temp.remove() }
        let result = try await SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer", "works.sth.brewer.staging"],
                                                        "readonly": true, "storage_mode": "s3", "s3_bucket": String(bucket),
                                                        "s3_object_prefix": "match", "team_id": "ABCDE12345", "keychain_name": "ci"])
            .run(in: harness.context)
        #expect(result.certificateSHA1 == MatchFixture.distSHA1)
        #expect(result.profiles.map(\.uuid) == MatchFixture.profiles.prefix(2).map(\.uuid))
        _ = await harness.context.cleanups.runAll()

        // Without team_id and with two teams there, the step asks for it.
        let ambiguous = try MatchHarness(environment: environment, project: fixture.temp.path)
        defer { ambiguous.temp.remove() }
        await #expect { try await SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                          "storage_mode": "s3", "s3_bucket": String(bucket), "s3_object_prefix": "match"])
            .run(in: ambiguous.context) } throws: { "\($0)".contains("team_id") }

        let importer = try MatchHarness(environment: environment, project: fixture.temp.path)
        defer { importer.temp.remove() }
        _ = try await MatchImport.resolve(["type": MatchType.development, "cert_path": "clear/certs/distribution/DISTID0001.cer",
                                           "p12_path": "clear/certs/distribution/DISTID0001.p12", "storage_mode": "s3",
                                           "s3_bucket": String(bucket), "s3_object_prefix": "match", "team_id": "ABCDE12345"])
            .run(in: importer.context)
        // Downloaded by the AWS CLI from where fastlane looks for it, and decrypted by the Python implementation.
        let downloaded = fixture.temp.path + "/downloaded.p12"
        try aws(["s3", "cp", "--only-show-errors", "s3://\(bucket)/match/ABCDE12345/certs/development/DISTID0001.p12", downloaded], servers)
        #expect(try MatchFixture.pythonDecrypt(downloaded, password: fixture.password) == MatchFixture.bytes("\(fixture.clear)/certs/distribution/DISTID0001.p12"))
    }

    /// The AWS CLI (`make test` installs it into .build/venv) against the RGW, started with
    /// posix_spawn like the servers.
    func aws(_ arguments: [String], _ servers: [String: String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-match-aws-\(UUID().uuidString.prefix(8)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = servers["S3_ACCESS_KEY"]
        environment["AWS_SECRET_ACCESS_KEY"] = servers["S3_SECRET_KEY"]
        environment["AWS_DEFAULT_REGION"] = "us-east-1"
        environment["AWS_CONFIG_FILE"] = "/nonexistent"
        environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent"
        var child = ChildProcess(["aws", "--endpoint-url", servers["S3_ENDPOINT"]!] + arguments, environment: environment)
        child.standardOutput = .appending(path: log, mode: 0o600)
        child.standardError = .standardOutput
        let status = ChildProcess.wait(try child.start())
        guard status.exitCode == 0 else {
            throw FixtureError("aws \(arguments.joined(separator: " ")) ended \(status): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }
}
