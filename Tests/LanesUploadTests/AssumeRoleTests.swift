import Foundation
@testable import LanesUpload
import Testing
@testable import LanesHTTP

/// Issue 21: a profile with `role_arn` and `source_profile` or `credential_source` assumes the role
/// through STS AssumeRole, as the AWS CLI does. The stand-in recomputes each request's SigV4
/// signature with botocore and refuses a wrong one, so lanes' signer does not test itself.
@Suite(.timeLimit(.minutes(10))) struct AssumeRoleTests {
    static let sourceKey = "AKIASOURCEEXAMPLE001"
    static let sourceSecret = "source-secret-\(UUID().uuidString)"
    static let externalID = "lanes-external-7"

    static func services() async throws -> CredentialServices {
        try await CredentialServices(extra: ["source_key": sourceKey, "source_secret": sourceSecret, "rotate": true, "external_id": externalID])
    }

    static func resolve(_ services: CredentialServices, config: String, profile: String, extra: [String: String] = [:],
                        secrets: SecretRecorder = SecretRecorder()) throws -> S3Credentials {
        let credentials = try services.file("credentials", "[base]\naws_access_key_id = \(sourceKey)\naws_secret_access_key = \(sourceSecret)\n")
        let environment = ["HOME": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "true", "AWS_SHARED_CREDENTIALS_FILE": credentials,
                           "AWS_CONFIG_FILE": try services.file("config", config), "AWS_ENDPOINT_URL_STS": services.url, "AWS_REGION": "eu-west-1"]
        let http = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 1), proxies: .direct)
        return try S3CredentialChain(environment: environment.merging(extra) { $1 }, http: http, registerSecret: secrets.register,
                                     now: { 1_795_000_000 }).resolve(profile: profile)
    }

    static func form(_ body: String) -> [String: String] {
        Dictionary(body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { $1 })
    }

    @Test func aRoleIsAssumedWithTheSourceProfilesKeysSignedAsSTSChecksThem() async throws {
        let services = try await Self.services()
        defer { services.stop() }
        let secrets = SecretRecorder()
        let config = "[profile deploy]\nrole_arn = \(CredentialServices.role)\nsource_profile = base\nexternal_id = \(Self.externalID)\nrole_session_name = nightly\nduration_seconds = 1800\n"
        let credentials = try Self.resolve(services, config: config, profile: "deploy", secrets: secrets)
        #expect(credentials.accessKeyID == "ASIAISSUED0000000001")
        #expect(credentials.expiration == 1_893_456_000)
        #expect(credentials.source == "role \(CredentialServices.role) of profile deploy in \(services.folder)/config")
        let request = try #require(services.requests.first)
        let form = Self.form(request.body)
        #expect(form["Action"] == "AssumeRole" && form["RoleArn"] == CredentialServices.role && form["RoleSessionName"] == "nightly")
        #expect(form["ExternalId"] == Self.externalID && form["DurationSeconds"] == "1800")
        #expect(request.headers["Authorization"]?.contains("Credential=\(Self.sourceKey)/20261118/eu-west-1/sts/aws4_request") == true)
        #expect(request.headers["x-amz-content-sha256"] == nil, "botocore hashes the body itself: the signature covers it without the header")
        #expect(secrets.registered.contains(Self.sourceSecret), "the source secret is registered before it signs")
    }

    /// The stand-in must refuse what botocore computes differently: a wrong secret fails.
    @Test func aWrongSignatureIsRefusedAndTheErrorNamesTheProfile() async throws {
        let services = try await CredentialServices(extra: ["source_key": Self.sourceKey, "source_secret": "another-secret", "external_id": Self.externalID])
        defer { services.stop() }
        let config = "[profile deploy]\nrole_arn = \(CredentialServices.role)\nsource_profile = base\nexternal_id = \(Self.externalID)\n"
        let error = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "deploy") }
        #expect(error.message.contains("SignatureDoesNotMatch") && error.message.contains("profile deploy in"), "\(error)")
        #expect(!error.description.contains(Self.sourceSecret))
    }

    @Test func rolesChainThroughSourceProfiles() async throws {
        let services = try await Self.services()
        defer { services.stop() }
        let second = "arn:aws:iam::210987654321:role/uploader"
        let config = """
            [profile first]
            role_arn = \(CredentialServices.role)
            source_profile = base
            external_id = \(Self.externalID)
            [profile second]
            role_arn = \(second)
            source_profile = first
            external_id = \(Self.externalID)
            """
        let credentials = try Self.resolve(services, config: config, profile: "second")
        #expect(credentials.accessKeyID == "ASIAISSUED0000000002")
        let calls = services.requests.map { (Self.form($0.body)["RoleArn"] ?? "", $0.headers["Authorization"] ?? "", $0.headers["x-amz-security-token"]) }
        #expect(calls.count == 2)
        #expect(calls.first?.0 == CredentialServices.role && calls.first?.1.contains("Credential=\(Self.sourceKey)/") == true)
        #expect(calls.last?.0 == second && calls.last?.1.contains("Credential=ASIAISSUED0000000001/") == true)
        #expect(calls.last?.2 == CredentialServices.sessionToken + "-1", "the first role's session token signs the second call")
    }

    /// botocore: a source profile with keys of its own signs with them, even when it names a role too.
    @Test func aSourceProfileWithKeysGivesThemWithoutAssumingItsOwnRole() async throws {
        let services = try await Self.services()
        defer { services.stop() }
        let config = """
            [profile keyed]
            aws_access_key_id = \(Self.sourceKey)
            aws_secret_access_key = \(Self.sourceSecret)
            role_arn = arn:aws:iam::123456789012:role/never-assumed
            source_profile = missing
            [profile deploy]
            role_arn = \(CredentialServices.role)
            source_profile = keyed
            external_id = \(Self.externalID)
            """
        #expect(try Self.resolve(services, config: config, profile: "deploy").accessKeyID == "ASIAISSUED0000000001")
        #expect(services.requests.count == 1 && services.requests.first?.headers["Authorization"]?.contains("Credential=\(Self.sourceKey)/") == true)
    }

    /// The role is asked of STS in the region it is signed for: the profile's when no variable names one.
    @Test func stsIsReachedInTheRegionItIsSignedFor() async throws {
        #expect(try S3CredentialChain(environment: [:]).stsEndpoint(region: "eu-west-1").host == "sts.eu-west-1.amazonaws.com")
        #expect(try S3CredentialChain(environment: [:]).stsEndpoint().host == "sts.amazonaws.com")
        #expect(try S3CredentialChain(environment: ["AWS_REGION": "ap-south-1"]).stsEndpoint().host == "sts.ap-south-1.amazonaws.com")
    }

    @Test func loopsMFAAndUnknownSourcesAreRefusedClearly() async throws {
        let services = try await Self.services()
        defer { services.stop() }
        let config = """
            [profile a]
            role_arn = \(CredentialServices.role)
            source_profile = b
            [profile b]
            role_arn = \(CredentialServices.role)
            source_profile = a
            [profile mfa]
            role_arn = \(CredentialServices.role)
            source_profile = base
            mfa_serial = arn:aws:iam::123456789012:mfa/ci
            [profile odd]
            role_arn = \(CredentialServices.role)
            credential_source = Laptop
            [profile both]
            role_arn = \(CredentialServices.role)
            credential_source = Environment
            source_profile = base
            """
        let loop = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "a") }
        #expect(loop.message.contains("loops: a -> b -> a"), "\(loop)")
        let mfa = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "mfa") }
        #expect(mfa.message.contains("profile mfa in") && mfa.message.contains("mfa_serial"), "\(mfa)")
        let odd = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "odd") }
        #expect(odd.message.contains("credential_source of profile odd") && odd.hint?.contains("Ec2InstanceMetadata") == true, "\(odd)")
        let both = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "both") }
        #expect(both.message.contains("both source_profile and credential_source"), "\(both)")
        #expect(services.requests.isEmpty, "nothing reached STS")
    }

    @Test func credentialSourceEnvironmentContainerAndInstanceSignTheCall() async throws {
        let services = try await Self.services()
        defer { services.stop() }
        let config = """
            [profile fromenv]
            role_arn = \(CredentialServices.role)
            credential_source = Environment
            external_id = \(Self.externalID)
            [profile fromecs]
            role_arn = \(CredentialServices.role)
            credential_source = EcsContainer
            external_id = \(Self.externalID)
            [profile fromec2]
            role_arn = \(CredentialServices.role)
            credential_source = Ec2InstanceMetadata
            external_id = \(Self.externalID)
            """
        let fromEnvironment = try Self.resolve(services, config: config, profile: "fromenv",
                                               extra: ["AWS_ACCESS_KEY_ID": Self.sourceKey, "AWS_SECRET_ACCESS_KEY": Self.sourceSecret])
        #expect(fromEnvironment.accessKeyID == "ASIAISSUED0000000001")
        // The container hands out the stand-in's configured keys, which STS knows once it issued them.
        let fromContainer = try Self.resolve(services, config: config, profile: "fromecs",
                                             extra: ["AWS_CONTAINER_CREDENTIALS_FULL_URI": services.url + "/container/creds",
                                                     "AWS_CONTAINER_AUTHORIZATION_TOKEN": CredentialServices.containerToken])
        #expect(fromContainer.accessKeyID == "ASIAISSUED0000000002")
        let fromInstance = try Self.resolve(services, config: config, profile: "fromec2",
                                            extra: ["AWS_EC2_METADATA_DISABLED": "", "AWS_EC2_METADATA_SERVICE_ENDPOINT": services.url])
        #expect(fromInstance.accessKeyID == "ASIAISSUED0000000003")
        let disabled = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "fromec2") }
        #expect(disabled.message.contains("AWS_EC2_METADATA_DISABLED=true turns off"), "\(disabled)")
        let missing = try #require(throws: UploadError.self) { try Self.resolve(services, config: config, profile: "fromenv") }
        #expect(missing.message.contains("credential_source = Environment") && missing.hint == "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", "\(missing)")
    }
}
