import Foundation
@testable import LanesUpload
import Synchronization
import LanesTestSupport
import Testing
@testable import LanesHTTP

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let seconds: Mutex<Int>
    init(_ start: Int) { seconds = Mutex(start) }
    var now: Int { seconds.withLock { $0 } }
    func set(_ value: Int) { seconds.withLock { $0 = value } }
}

/// Issue 21: temporary credentials are renewed during a long upload, as botocore's
/// RefreshableCredentials renews them (15 minutes advisory, 10 minutes mandatory), on an injected clock.
@Suite(.timeLimit(.minutes(10))) struct CredentialRenewalTests {
    static let expiry = 1_893_456_000  // 2030-01-01T00:00:00Z, what the STS stand-in hands out first

    static func keys(_ number: Int, expiring: Int? = expiry) -> S3Credentials {
        S3Credentials(accessKeyID: "ASIAKEY\(number)", secretAccessKey: "secret-\(number)-\(UUID().uuidString)", sessionToken: "token-\(number)",
                      source: "a test", expiration: expiring)
    }

    struct Refused: Error {}

    @Test func expirationIsReadAsAWSWritesIt() {
        #expect(S3Credentials.epochSeconds(iso8601: "2030-01-01T00:00:00Z") == Self.expiry)
        #expect(S3Credentials.epochSeconds(iso8601: "2030-01-01T01:30:00.123Z") == Self.expiry + 5400)
        #expect(S3Credentials.epochSeconds(iso8601: "2030-01-01T02:00:00+02:00") == Self.expiry)
        #expect(S3Credentials.epochSeconds(iso8601: "1999-12-31T23:59:59Z") == 946_684_799)
        for bad in ["", "2030-01-01", "2030-13-01T00:00:00Z", "2030-01-01T00:00:00Zjunk", "tomorrow"] {
            #expect(S3Credentials.epochSeconds(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func keysAreKeptUntilTheAdvisoryWindowAndKeysWithoutExpiryForGood() async throws {
        let clock = TestClock(Self.expiry - S3CredentialProvider.advisoryWindow - 1)
        let calls = Mutex(0)
        let first = Self.keys(1)
        let provider = S3CredentialProvider(initial: first, now: { clock.now }) { () throws(UploadError) in
            calls.withLock { $0 += 1 }
            return Self.keys(2, expiring: Self.expiry + 3600)
        }
        #expect(try provider.current().accessKeyID == "ASIAKEY1")
        #expect(calls.withLock { $0 } == 0)
        clock.set(Self.expiry - S3CredentialProvider.advisoryWindow + 1)
        #expect(try provider.current().accessKeyID == "ASIAKEY2")
        #expect(calls.withLock { $0 } == 1)

        let fixed = S3CredentialProvider(initial: Self.keys(3, expiring: nil), now: { Self.expiry + 1_000_000 }) { () throws(UploadError) in
            Issue.record("long-term keys are never renewed")
            return Self.keys(4)
        }
        #expect(try fixed.current().accessKeyID == "ASIAKEY3")
    }

    /// botocore: a failure in the advisory window keeps the keys (they work ten more minutes); in the
    /// mandatory window it is the request's error.
    @Test func aFailedRenewalIsIgnoredOnlyInTheAdvisoryWindow() async throws {
        let clock = TestClock(Self.expiry - S3CredentialProvider.mandatoryWindow - 60)
        let provider = S3CredentialProvider(initial: Self.keys(1), now: { clock.now }) { () throws(UploadError) in
            throw UploadError(.transfer, "s3: STS is down")
        }
        #expect(try provider.current().accessKeyID == "ASIAKEY1")
        clock.set(Self.expiry - S3CredentialProvider.mandatoryWindow + 60)
        let error = try #require(throws: UploadError.self) { try provider.current() }
        #expect(error.message == "s3: STS is down")
    }

    @Test func renewedKeysThatAlreadyExpiredAreAnError() async throws {
        let provider = S3CredentialProvider(initial: Self.keys(1), now: { Self.expiry - 60 }) { () throws(UploadError) in
            Self.keys(2, expiring: Self.expiry - 120)
        }
        let error = try #require(throws: UploadError.self) { try provider.current() }
        #expect(error.message.contains("renewed from a test have already expired"), "\(error)")
    }

    /// Eight threads need new keys at once: one renews, the others wait for it and sign with its keys.
    @Test func oneThreadRenewsWhileTheOthersWait() async throws {
        let threads = 8
        let arrived = Mutex(0), calls = Mutex(0)
        let secrets = SecretRecorder()
        let renewedKeys = Self.keys(2, expiring: Self.expiry + 3600)
        let provider = S3CredentialProvider(initial: Self.keys(1), registerSecret: secrets.register, now: { Self.expiry - 60 }) { () throws(UploadError) in
            calls.withLock { $0 += 1 }
            // Hold the renewal until every thread has asked (bounded), so that they really overlap.
            let limit = Date().addingTimeInterval(5)
            while arrived.withLock({ $0 }) < threads, Date() < limit { usleep(1_000) }
            return renewedKeys
        }
        let used = Mutex<[String]>([])
        // Threads of their own: a dispatch pool runs only as many at once as there are cores.
        for _ in 0..<threads {
            startThread {
                arrived.withLock { $0 += 1 }
                let key = (try? provider.current().accessKeyID) ?? "failed"
                used.withLock { $0.append(key) }
            }
        }
        #expect(await eventually(within: .seconds(30)) { used.withLock { $0.count } == threads })
        #expect(calls.withLock { $0 } == 1)
        #expect(used.withLock { $0 } == Array(repeating: "ASIAKEY2", count: threads))
        #expect(secrets.registered.contains(renewedKeys.secrets[0]) && secrets.registered.contains("token-2"),
                "renewed secrets are registered before they are used")
    }

    /// A multipart upload against one-hour web identity keys: after the first part the clock moves
    /// into the mandatory window, and the next parts and the completion are signed with renewed keys.
    @Test func aMultipartUploadSignsLaterPartsWithRenewedWebIdentityKeys() async throws {
        let services = try await CredentialServices(extra: ["rotate": true, "expirations": ["2030-01-01T00:00:00Z", "2030-01-01T01:00:00Z"]])
        defer { services.stop() }
        let tokenFile = try services.file("token", CredentialServices.webToken)
        let partSize = 5 << 20
        let file = try services.file("artifact.bin", "")
        try Data((0..<(partSize * 2 + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: file))
        let clock = TestClock(Self.expiry - 3600)
        let secrets = SecretRecorder()
        let environment = ["HOME": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "true", "AWS_ROLE_ARN": CredentialServices.role,
                           "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile, "AWS_ENDPOINT_URL_STS": services.url]
        let uploads = Uploads(environment: environment, registerSecret: secrets.register,
                              http: HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 20), retry: RetryPolicy(attempts: 1), proxies: .direct),
                              now: { clock.now })
        let settings = UploadSettings(s3Endpoint: services.url, s3: S3UploadOptions(multipartThreshold: Int64(partSize), partSize: Int64(partSize), concurrency: 1))
        let moveClock = ClockMovingProgress(after: Int64(partSize)) { clock.set(Self.expiry - 300) }
        let receipt = try uploads.upload(file: file, to: .s3(bucket: "lanes-renew", key: "big.bin"), settings: settings, progress: moveClock)
        #expect(receipt.size == Int64(partSize * 2 + 1000))

        let signed = services.s3Requests.map { ($0.method + " " + ($0.path.contains("partNumber=") ? "part" : $0.path.contains("uploadId=") ? "complete" : "other"), $0.key) }
        let parts = signed.filter { $0.0 == "PUT part" }.map(\.1)
        #expect(parts == ["ASIAISSUED0000000001", "ASIAISSUED0000000002", "ASIAISSUED0000000002"], "\(signed)")
        #expect(signed.first { $0.0 == "POST complete" }?.1 == "ASIAISSUED0000000002")
        #expect(services.requests.filter { $0.body.contains("AssumeRoleWithWebIdentity") }.count == 2, "STS asked once more, not per part")
        #expect(secrets.registered.contains(CredentialServices.secret + "-2") && secrets.registered.contains(CredentialServices.sessionToken + "-2"))
    }
}

/// Calls `action` once, when `threshold` bytes have been sent.
final class ClockMovingProgress: ProgressReporter {
    let threshold: Int64
    let action: @Sendable () -> Void
    private let done = Mutex(false)
    init(after threshold: Int64, _ action: @escaping @Sendable () -> Void) {
        self.threshold = threshold
        self.action = action
    }
    func start(name: String, total: Int64) {}
    func update(completed: Int64, total: Int64) {
        guard completed >= threshold, !done.withLock({ value in defer { value = true }; return value }) else { return }
        action()
    }
    func finish(completed: Int64, total: Int64) {}
}
