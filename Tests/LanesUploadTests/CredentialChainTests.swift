import LanesPlatform
import LanesTestSupport
import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// Tests/Servers/aws_credential_services.py: STS, container credentials and IMDSv2 on loopback.
struct CredentialServices {
    static let webToken = "eyJhbGciOiJSUzI1NiJ9.web-identity-\(UUID().uuidString)"
    static let containerToken = "container-auth-\(UUID().uuidString)"
    static let role = "arn:aws:iam::123456789012:role/lanes-builder"
    static let key = "ASIAEXAMPLELANES0001"
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY-\(UUID().uuidString.prefix(8))"
    static let sessionToken = "IQoJb3JpZ2luX2VjEXAMPLE-\(UUID().uuidString)"

    let pid: pid_t
    let port: Int
    let folder: String

    /// `extra` adds to the stand-in's config.json (source keys for AssumeRole, "rotate", "expirations").
    init(extra: [String: Any] = [:]) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-aws-services-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config: [String: Any] = ["web_token": Self.webToken, "container_token": Self.containerToken, "role_arn": Self.role,
                                     "key": Self.key, "secret": Self.secret, "session_token": Self.sessionToken].merging(extra) { $1 }
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: folder + "/config.json"))
        let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/aws_credential_services.py").path
        pid = try Spawn.start(["python3", script, folder, String(getpid())], outputPath: folder + "/log")
        let portFile = folder + "/port"
        _ = await eventually(within: .seconds(10)) { (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) } != nil }
        let found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
        port = try #require(found, "the stand-in did not start: \((try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "")")
    }

    var url: String { "http://127.0.0.1:\(port)" }

    struct Request: Decodable { let method: String; let path: String; let headers: [String: String]; let body: String }

    var requests: [Request] {
        ((try? String(contentsOfFile: folder + "/requests", encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Request.self, from: Data($0.utf8))
        }
    }

    /// What the stand-in S3 (bucket lanes-renew) received: each request and the access key id that signed it.
    struct S3Request: Decodable { let method: String; let path: String; let key: String; let token: String }

    var s3Requests: [S3Request] {
        ((try? String(contentsOfFile: folder + "/s3requests", encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(S3Request.self, from: Data($0.utf8))
        }
    }

    /// Writes `text` to `name` in the folder; an executable one through `AtomicFile`, whose descriptor is
    /// close-on-exec, so that a child another test starts meanwhile cannot keep it open (ETXTBSY).
    func file(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let path = folder + "/" + name
        try AtomicFile.write(text, to: path, permissions: executable ? 0o755 : 0o644)
        return path
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

final class SecretRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []
    func register(_ value: String) { lock.withLock { values.append(value) } }
    var registered: [String] { lock.withLock { values } }
}

/// Issue 21: S3 credentials found as the AWS CLI finds them, against loopback stand-ins of STS,
/// the container credentials endpoint and IMDSv2, with every secret registered and never shown.
@Suite(.timeLimit(.minutes(10))) struct CredentialChainTests {
    static let base = ["HOME": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "true"]

    static func resolve(_ environment: [String: String], profile: String? = nil, secrets: SecretRecorder = SecretRecorder()) throws -> S3Credentials {
        let http = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 1), proxies: .direct)
        return try S3CredentialChain(environment: base.merging(environment) { $1 }, http: http, registerSecret: secrets.register, now: { 1_795_000_000 })
            .resolve(profile: profile)
    }

    static func expectTemporary(_ credentials: S3Credentials) {
        #expect(credentials.accessKeyID == CredentialServices.key)
        #expect(credentials.secrets == [CredentialServices.secret, CredentialServices.sessionToken])
    }

    @Test func aWebIdentityTokenIsExchangedWithSTSInTheBodyNeverTheURL() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let tokenFile = try services.file("token", CredentialServices.webToken + "\n")
        let secrets = SecretRecorder()
        let credentials = try Self.resolve(["AWS_ROLE_ARN": CredentialServices.role, "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile,
                                            "AWS_ENDPOINT_URL_STS": services.url], secrets: secrets)
        Self.expectTemporary(credentials)
        #expect(credentials.source == "web identity role \(CredentialServices.role)")
        #expect(secrets.registered.contains(CredentialServices.webToken), "the token is registered before it is sent")
        let request = try #require(services.requests.first)
        #expect(request.method == "POST" && request.path == "/")
        #expect(request.body.contains("Action=AssumeRoleWithWebIdentity") && request.body.contains("RoleSessionName=lanes-1795000000"))
        #expect(!request.headers.values.contains { $0.contains(CredentialServices.webToken) })
    }

    /// STS that echoes the token it refused: the error still never shows it.
    @Test func aRefusedWebIdentityTokenIsAClearErrorWithoutTheToken() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let wrong = "eyJ-a-stale-token-\(UUID().uuidString)"
        let tokenFile = try services.file("token", wrong)
        let error = try #require(throws: UploadError.self) {
            try Self.resolve(["AWS_ROLE_ARN": CredentialServices.role, "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile, "AWS_ENDPOINT_URL_STS": services.url])
        }
        #expect(error.message.contains("STS refused the web identity token") && error.message.contains("InvalidIdentityToken"), "\(error)")
        #expect(!error.description.contains(wrong), "\(error)")
    }

    @Test func aProfileOfTheConfigFileMayNameAWebIdentityRole() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let tokenFile = try services.file("token", CredentialServices.webToken)
        let config = try services.file("config", "[profile eks]\nrole_arn = \(CredentialServices.role)\nweb_identity_token_file = \(tokenFile)\nrole_session_name = nightly\n")
        let credentials = try Self.resolve(["AWS_CONFIG_FILE": config, "AWS_ENDPOINT_URL_STS": services.url], profile: "eks")
        Self.expectTemporary(credentials)
        #expect(services.requests.first?.body.contains("RoleSessionName=nightly") == true)
    }

    @Test func containerCredentialsComeWithTheAuthorizationTokenFromItsFile() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let tokenFile = try services.file("container-token", CredentialServices.containerToken + "\n")
        let secrets = SecretRecorder()
        let credentials = try Self.resolve(["AWS_CONTAINER_CREDENTIALS_FULL_URI": services.url + "/container/creds",
                                            "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": tokenFile], secrets: secrets)
        Self.expectTemporary(credentials)
        #expect(secrets.registered.contains(CredentialServices.containerToken))
        #expect(services.requests.first?.headers["Authorization"] == CredentialServices.containerToken)

        let refused = try #require(throws: UploadError.self) {
            try Self.resolve(["AWS_CONTAINER_CREDENTIALS_FULL_URI": services.url + "/container/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "stale"])
        }
        #expect(refused.message.contains("answered HTTP 403") && refused.hint?.contains("AWS_CONTAINER_AUTHORIZATION_TOKEN") == true, "\(refused)")
        let elsewhere = try #require(throws: UploadError.self) {
            try Self.resolve(["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://10.20.30.40/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "t"])
        }
        #expect(elsewhere.message.contains("not a loopback or container agent address"), "\(elsewhere)")
    }

    @Test func theInstanceMetadataServiceIsAskedWithASessionToken() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let secrets = SecretRecorder()
        let credentials = try Self.resolve(["AWS_EC2_METADATA_DISABLED": "", "AWS_EC2_METADATA_SERVICE_ENDPOINT": services.url], secrets: secrets)
        Self.expectTemporary(credentials)
        #expect(credentials.source == "instance role lanes-builder")
        let requests = services.requests
        #expect(requests.map { "\($0.method) \($0.path)" } == ["PUT /latest/api/token", "GET /latest/meta-data/iam/security-credentials/",
                                                                "GET /latest/meta-data/iam/security-credentials/lanes-builder"])
        #expect(requests.first?.headers["x-aws-ec2-metadata-token-ttl-seconds"] == "21600")
        #expect(requests.dropFirst().allSatisfy { $0.headers["x-aws-ec2-metadata-token"] != nil })
        #expect(secrets.registered.contains { $0.hasPrefix("AQAEAHlanes") }, "the IMDS session token is a secret too")
    }

    /// botocore: a token PUT answered 403, 404 or 405 means IMDSv1; the GETs go without a token,
    /// unless AWS_EC2_METADATA_V1_DISABLED=true.
    @Test func anIMDSv1OnlyServiceIsAskedWithoutATokenUnlessV1IsDisabled() async throws {
        let services = try await CredentialServices(extra: ["imds_v1_only": true])
        defer { services.stop() }
        let imds = ["AWS_EC2_METADATA_DISABLED": "", "AWS_EC2_METADATA_SERVICE_ENDPOINT": services.url]
        let credentials = try Self.resolve(imds)
        Self.expectTemporary(credentials)
        let requests = services.requests
        #expect(requests.map { "\($0.method) \($0.path)" } == ["PUT /latest/api/token", "GET /latest/meta-data/iam/security-credentials/",
                                                                "GET /latest/meta-data/iam/security-credentials/lanes-builder"])
        #expect(requests.dropFirst().allSatisfy { $0.headers["x-aws-ec2-metadata-token"] == nil })
        let disabled = try #require(throws: UploadError.self) { try Self.resolve(imds.merging(["AWS_EC2_METADATA_V1_DISABLED": "true"]) { $1 }) }
        #expect(disabled.message.contains("HTTP 405") && disabled.message.contains("AWS_EC2_METADATA_V1_DISABLED=true"), "\(disabled)")
        #expect(services.requests.count == 4, "no GET without a token once IMDSv1 is disabled")
    }

    @Test func aCredentialProcessPrintsTheKeysAsJSON() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let script = try services.file("issue-keys.sh", """
            #!/bin/sh
            [ "$1" = "--role" ] && [ "$2" = "ci builder" ] || { echo "bad arguments: $*" >&2; exit 3; }
            printf '{"Version": 1, "AccessKeyId": "%s", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "2030-01-01T00:00:00Z"}\\n' \
              "$LANES_TEST_KEY" "$LANES_TEST_SECRET" "$LANES_TEST_TOKEN"
            """, executable: true)
        let config = try services.file("config", "[default]\nregion = eu-west-1\ncredential_process = \(script) --role \"ci builder\"\n\n[profile broken]\ncredential_process = \(script) --role other\n")
        let environment = ["AWS_CONFIG_FILE": config, "LANES_TEST_KEY": CredentialServices.key, "LANES_TEST_SECRET": CredentialServices.secret,
                           "LANES_TEST_TOKEN": CredentialServices.sessionToken, "PATH": "/usr/bin:/bin"]
        let credentials = try Self.resolve(environment)
        Self.expectTemporary(credentials)
        #expect(credentials.source == "credential_process of profile default in \(config)")

        let failed = try #require(throws: UploadError.self) { try Self.resolve(environment, profile: "broken") }
        #expect(failed.message.contains("failed (status 3): bad arguments: --role other"), "\(failed)")
    }

    /// The order the AWS CLI uses: the environment's keys, then the credentials file, then the config file.
    @Test func sourcesAreTriedInTheAWSCLIsOrder() async throws {
        let services = try await CredentialServices()
        defer { services.stop() }
        let credentialsFile = try services.file("credentials", "[ci]\naws_access_key_id = AKIAFROMFILE\naws_secret_access_key = file-secret\n")
        let config = try services.file("config", "[profile ci]\ncredential_process = /bin/false\n[profile keys]\naws_access_key_id = AKIAFROMCONFIG\naws_secret_access_key = config-secret\n[profile chained]\nrole_arn = \(CredentialServices.role)\nsource_profile = ci\n")
        let files = ["AWS_SHARED_CREDENTIALS_FILE": credentialsFile, "AWS_CONFIG_FILE": config]
        #expect(try Self.resolve(files.merging(["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret"]) { $1 }).accessKeyID == "AKIAENV")
        #expect(try Self.resolve(files, profile: "ci").accessKeyID == "AKIAFROMFILE", "the credentials file before credential_process")
        #expect(try Self.resolve(files.merging(["AWS_PROFILE": "keys"]) { $1 }).accessKeyID == "AKIAFROMCONFIG")
        let chained = try #require(throws: UploadError.self) { try Self.resolve(files.merging(["AWS_ENDPOINT_URL_STS": services.url]) { $1 }, profile: "chained") }
        // The role is assumed with the ci profile's keys, which this STS does not know (AssumeRoleTests has one that does).
        #expect(chained.message.contains("STS refused to let access key AKIAFROMFILE") && chained.message.contains("InvalidClientTokenId"), "\(chained)")
        let missing = try #require(throws: UploadError.self) { try Self.resolve(files, profile: "nope") }
        #expect(missing.message.contains("profile nope is in neither"), "\(missing)")
        let none = try #require(throws: UploadError.self) { try Self.resolve([:]) }
        #expect(none.kind == .environment && none.message.contains("no credentials"), "\(none)")
    }
}
