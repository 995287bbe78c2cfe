import Foundation
import LanesUpload
import Testing
import LanesHTTP

struct DestinationParsingTests {
    @Test(arguments: [
        ("s3://builds/ios/app.ipa", UploadDestination.s3(bucket: "builds", key: "ios/app.ipa")),
        ("s3://builds", UploadDestination.s3(bucket: "builds", key: "")),
        ("firebase://1:123456789012:ios:0a1b2c3d", UploadDestination.firebase(appID: "1:123456789012:ios:0a1b2c3d")),
        ("testflight://1234567890", UploadDestination.testFlight(appID: "1234567890")),
        ("file:///srv/artifacts", UploadDestination.directory(path: "/srv/artifacts")),
        ("artifacts/store", UploadDestination.directory(path: "artifacts/store")),
    ])
    func parses(text: String, expected: UploadDestination) throws {
        #expect(try UploadDestination(parsing: text) == expected)
    }

    @Test func httpURLsKeepPortPathAndQuery() throws {
        guard case .http(let url) = try UploadDestination(parsing: "https://repo.example.com:8443/artifactory/ios/?x=1") else {
            Issue.record("not an http destination"); return
        }
        #expect(url.host == "repo.example.com" && url.port == 8443 && url.path == "/artifactory/ios/" && url.query == "x=1")
        // The printed form leaves out the query, which may carry a signature.
        #expect(url.description == "https://repo.example.com:8443/artifactory/ios/")
    }

    @Test(arguments: [
        "s3://Bad_Bucket/key", "firebase://my-app", "testflight://com.example.app", "ftp://host/file", "file://relative",
        "https://user:password@host/path", "",
    ])
    func rejectsWithAUsageError(text: String) throws {
        let error = try #require(throws: UploadError.self) { try UploadDestination(parsing: text) }
        #expect(error.kind == .usage)
        #expect(!error.description.contains("password@"))
    }
}

struct CredentialTests {
    @Test func environmentVariablesComeFirst() throws {
        let credentials = try S3Credentials.resolve(environment: ["AWS_ACCESS_KEY_ID": "AKIA1", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "tok"])
        #expect(credentials.accessKeyID == "AKIA1")
        #expect(credentials.secrets == ["s3cr3t", "tok"])
    }

    @Test func aNamedProfileIsReadFromTheCredentialsFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-aws-\(UUID().uuidString)")
        try "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = d\n\n[ci]\naws_access_key_id=AKIACI\naws_secret_access_key = ci-secret\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let credentials = try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": file.path, "AWS_PROFILE": "ci"])
        #expect(credentials.accessKeyID == "AKIACI")
        #expect(credentials.secrets == ["ci-secret"])
        let missing = try #require(throws: UploadError.self) {
            try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": file.path], profile: "nope")
        }
        #expect(missing.message.contains("profile nope"))
    }

    @Test func aKeyWithoutItsSecretNamesTheMissingVariable() throws {
        let error = try #require(throws: UploadError.self) { try S3Credentials.resolve(environment: ["AWS_ACCESS_KEY_ID": "AKIA1"]) }
        #expect(error.kind == .environment)
        #expect(error.hint == "set AWS_SECRET_ACCESS_KEY")
    }
}

struct LocalStoreTests {
    @Test func storesByContentWithAManifestPerUpload() throws {
        let file = try TestFiles.random(size: 300_000, name: "App.ipa")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-store-\(UUID().uuidString)").path
        let store = LocalStore(root: root, now: { 1_795_000_000 })
        let metadata = ArtifactMetadata(lane: "beta", configuration: "Release", commit: "0123abc")
        let first = try store.upload(file: file.path, metadata: metadata, progress: SilentProgress())
        let digest = try TestFiles.sha256(of: file)
        #expect(first.sha256 == digest)
        #expect(first.location == "\(root)/objects/\(digest.prefix(2))/\(digest)")
        #expect(try TestFiles.sha256(of: URL(fileURLWithPath: first.location)) == digest)
        let manifest = try JSONDecoder().decode(LocalStore.Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: try #require(first.details["manifest"]))))
        #expect(manifest.name == "App.ipa" && manifest.lane == "beta" && manifest.configuration == "Release" && manifest.commit == "0123abc")
        #expect(manifest.sha256 == digest && manifest.size == 300_000 && manifest.time == "2026-11-18T11:06:40Z")
        #expect(manifest.object == "objects/\(digest.prefix(2))/\(digest)")
        // The same bytes again: one object, a second manifest; no temporary file left.
        let later = LocalStore(root: root, now: { 1_795_000_060 })
        _ = try later.upload(file: file.path, metadata: ArtifactMetadata(lane: "release"), progress: SilentProgress())
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/manifests").count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/objects/\(digest.prefix(2))") == [digest])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/objects").filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func aMissingArtifactIsAClearError() throws {
        let error = try #require(throws: UploadError.self) {
            try LocalStore(root: "/tmp/unused").upload(file: "/nonexistent/App.ipa", metadata: ArtifactMetadata(), progress: SilentProgress())
        }
        #expect(error.message.contains("/nonexistent/App.ipa"))
    }
}

struct ProgressTests {
    final class Lines: @unchecked Sendable {
        let lock = NSLock()
        var text: [String] = []
        func add(_ line: String) { lock.withLock { text.append(line) } }
    }

    @Test func withoutATerminalALineEveryTenPercent() {
        let lines = Lines()
        let reporter = PercentLines(write: lines.add)
        reporter.start(name: "App.ipa", total: 1000)
        for completed in stride(from: 0, through: 1000, by: 7) { reporter.update(completed: Int64(completed), total: 1000) }
        reporter.finish(completed: 1000, total: 1000)
        #expect(lines.text.count == 11)
        #expect(lines.text[1].hasPrefix("App.ipa: 10% "))
        #expect(lines.text.last == "App.ipa: 100% (1.0 KB)\n")
    }

    @Test func theTerminalBarShowsRateAndETA() {
        let line = TerminalProgressBar.line(name: "App.ipa", completed: 50_000_000, total: 200_000_000, elapsed: 5)
        #expect(line == "App.ipa [######------------------]  25%  10.0 MB/s  ETA 0:15")
    }
}

struct RetryPolicyTests {
    @Test func backoffGrowsExponentiallyUpToTheCapWithFullJitter() {
        let policy = RetryPolicy(attempts: 8, baseDelay: 0.5, maximumDelay: 10)
        #expect(policy.delay(afterAttempt: 1, unitRandom: 1) == 0.5)
        #expect(policy.delay(afterAttempt: 3, unitRandom: 1) == 2)
        #expect(policy.delay(afterAttempt: 7, unitRandom: 1) == 10)
        #expect(policy.delay(afterAttempt: 3, unitRandom: 0.25) == 0.5)
        #expect(policy.delay(afterAttempt: 3, unitRandom: 0) == 0)
    }
}
