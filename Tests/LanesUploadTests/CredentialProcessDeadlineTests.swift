import LanesPlatform
import Foundation
import LanesUpload
import LanesTestSupport
import Testing
import LanesHTTP

/// Issue 21: a `credential_process` that hangs, is cancelled or never stops printing is killed with
/// its whole process group, and the error names the profile and the config file.
@Suite(.timeLimit(.minutes(10))) struct CredentialProcessDeadlineTests {
    /// A config whose default profile runs `script` (which writes its background child's pid to `pidfile`).
    static func setUp(_ services: CredentialServices, script body: String) throws -> (environment: [String: String], config: String, pidfile: String) {
        let pidfile = services.folder + "/grandchild.pid"
        let script = try services.file("credentials.sh", "#!/bin/sh\n" + body.replacingOccurrences(of: "PIDFILE", with: pidfile),
                                       executable: true)
        let config = try services.file("config", "[profile hangs]\ncredential_process = \(script)\n")
        return (["HOME": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": config, "PATH": "/usr/bin:/bin"], config, pidfile)
    }

    /// Whether `pid` has ended (gone, or on Linux a zombie nobody reaps yet), waiting up to 5 s for it.
    static func ended(_ pid: pid_t) async -> Bool {
        await eventually(within: .seconds(5)) {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
    }

    static func grandchild(_ pidfile: String) throws -> pid_t {
        try #require((try? String(contentsOfFile: pidfile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }

    @Test func aProcessThatNeverEndsIsKilledWithItsGroupAtTheDeadline() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let (environment, config, pidfile) = try Self.setUp(services, script: "sleep 1000 &\necho $! > PIDFILE\nwait\n")
        let chain = S3CredentialChain(environment: environment, processDeadline: 0.5)
        let started = Date()
        let error = try #require(throws: UploadError.self) { try chain.resolve(profile: "hangs") }
        #expect(error.message.contains("the credential_process of profile hangs in \(config) did not finish within 0.5 s and was killed"), "\(error)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(await Self.ended(try Self.grandchild(pidfile)), "the background child in its group was killed too")
    }

    @Test func aCancelledUploadKillsTheProcessGroup() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let (environment, _, pidfile) = try Self.setUp(services, script: "sleep 1000 &\necho $! > PIDFILE\nwait\n")
        let cancellation = TransferCancellation()
        let chain = S3CredentialChain(environment: environment, http: HTTPClient(cancellation: cancellation, proxies: .direct), processDeadline: 600)
        // Cancel once the program runs (its pid file appears), bounded.
        startThread {
            let limit = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: pidfile), Date() < limit { usleep(10_000) }
            cancellation.cancel()
        }
        let error = try #require(throws: UploadError.self) { try chain.resolve(profile: "hangs") }
        #expect(error.message.contains("was stopped: the upload was cancelled"), "\(error)")
        #expect(await Self.ended(try Self.grandchild(pidfile)))
    }

    @Test func aProcessThatPrintsWithoutEndIsKilled() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let (environment, config, _) = try Self.setUp(services, script: "exec yes '{\"Version\": 1}'\n")
        let error = try #require(throws: UploadError.self) {
            try S3CredentialChain(environment: environment, processDeadline: 60).resolve(profile: "hangs")
        }
        #expect(error.message.contains("credential_process of profile hangs in \(config) printed more than 64 KiB"), "\(error)")
    }

    /// The expiry a credential_process prints is read, so that the keys are renewed in time.
    @Test func theExpiryOfProcessCredentialsIsKept() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let (environment, _, _) = try Self.setUp(services, script: """
            echo '{"Version": 1, "AccessKeyId": "ASIAPROC", "SecretAccessKey": "s", "SessionToken": "t", "Expiration": "2030-01-01T00:15:00Z"}'
            """)
        let credentials = try S3CredentialChain(environment: environment).resolve(profile: "hangs")
        #expect(credentials.expiration == 1_893_456_000 + 900)
    }
}
