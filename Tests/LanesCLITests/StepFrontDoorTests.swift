import Foundation
import Lanes
import LanesTestSupport
import Testing
@testable import LanesCLI

/// Issue 20: `lanes upload`, `lanes xcode set` and `lanes xcode provision` take their steps' options
/// as flags derived from the declarations, so a renamed option renames its flag and a command that
/// fills an option itself names one the step declares.
@Suite struct StepFrontDoorTests {
    static let doors = UploadCommand.doors + [XcodeSetCommand.door, XcodeProvisionCommand.door]

    @Test func everyOptionACommandFillsItselfIsDeclaredByItsStep() {
        for door in Self.doors {
            let declared = Set(door.step.info.options.map(\.name))
            #expect(door.fixed.isSubset(of: declared), "\(door.step.info.id) no longer declares \(door.fixed.subtracting(declared))")
        }
    }

    @Test func flagsAreTheOptionNamesAndTheHelpIsTheirSummaries() throws {
        let upload = UploadCommand.doors[0]
        #expect(try upload.options(from: ["--part-size-mib", "8", "--virtual-hosted", "--region=eu-west-1"])
                == ["part_size_mib:8", "virtual_hosted:true", "region:eu-west-1"])
        let help = StepFrontDoor.help(Self.doors)
        for door in Self.doors {
            for option in door.flagOptions {
                #expect(help.contains(StepFrontDoor.flag(for: option.name) + " ") && help.contains(option.summary), "\(option.name)")
            }
        }
        // Options filled by the command and secrets are not flags.
        #expect(!help.contains("--file ") && !help.contains("--xcodeproj "))
    }

    @Test func anUnknownOrStaleFlagIsAUsageErrorNamingTheRealOnes() throws {
        let error = #expect(throws: LanesError.self) { try UploadCommand.doors[0].options(from: ["--part-size", "8"]) }
        #expect(error?.kind == .usage)
        #expect(error?.hint?.contains("--part-size-mib") == true)
        let (options, assignments) = try XcodeSetCommand.door.parse(["--target", "App", "SWIFT_VERSION=6.0", "--build-configuration=Release", "A=B"])
        #expect(options == ["targets:App", "build_configuration:Release"])
        #expect(assignments == ["SWIFT_VERSION=6.0", "A=B"])
    }

    /// Issue 33: the flags of earlier releases (`--configuration`, `--target`) are the options'
    /// declared aliases, accepted and listed beside the option's own flag.
    @Test func earlierFlagNamesAreTheOptionsAliases() throws {
        #expect(try XcodeSetCommand.door.options(from: ["--configuration", "Release"]) == ["build_configuration:Release"])
        #expect(try XcodeProvisionCommand.door.options(from: ["--target", "App", "--configuration=Release"])
                .contains("build_configuration:Release"))
        #expect(StepFrontDoor.help([XcodeSetCommand.door]).contains("(also --configuration)"))
    }
}

/// The upload step's credentials are its options: `step_started` names where each came from and
/// masks the value, which appears nowhere in the output.
@Suite struct UploadCredentialOptionTests {
    @Test func credentialsShowTheirSourcesMasked() throws {
        let folder = LanesProcess.temporaryDirectory("upload-credentials")
        let file = folder.appendingPathComponent("app.txt")
        try "payload".write(to: file, atomically: true, encoding: .utf8)
        let token = "tok-\(UInt64.random(in: 1...UInt64.max))"
        let result = try LanesProcess().run(["upload", file.path, "--to", folder.appendingPathComponent("store").path, "--json"],
                                            in: folder, extraEnvironment: ["LANES_HTTP_TOKEN": token, "AWS_SECRET_ACCESS_KEY": token + "x",
                                                                                "AWS_DEFAULT_REGION": "eu-west-1", "AWS_PROFILE": "ci"])
        try #require(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(token))
        let started = try #require(result.standardOutput.split(separator: "\n").first { $0.contains("\"step_started\"") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(started.utf8)) as? [String: Any])
        let options = try #require(event["options"] as? [String: [String: String]])
        #expect(options["http_token"]?["source"] == "$LANES_HTTP_TOKEN")
        #expect(options["aws_secret_access_key"]?["source"] == "$AWS_SECRET_ACCESS_KEY")
        #expect(options["http_token"]?["value"]?.contains("tok-") == false)
        #expect(options["default_region"]?["source"] == "$AWS_DEFAULT_REGION" && options["default_region"]?["value"] == "eu-west-1")
        #expect(options["profile"]?["source"] == "$AWS_PROFILE")
    }
}

/// Issue 21, attacking the credential chain: container and web identity credentials, the keys they
/// hand out and a proxy's password reach no output, event or file of a failing `lanes upload`.
@Suite struct UploadCredentialChainLeakTests {
    @Test func noSecretOfTheChainOrTheProxyIsShownWhenTheUploadFails() throws {
        let folder = LanesProcess.temporaryDirectory("upload-chain")
        let services = folder.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let unique = { (label: String) in "\(label)-\(UInt64.random(in: 1...UInt64.max))" }
        let secrets = ["web_token": unique("webtok"), "container_token": unique("ctrtok"), "secret": unique("secretkey"),
                       "session_token": unique("sesstok"), "source_secret": unique("sourcesecret")]
        let config = secrets.merging(["role_arn": "arn:aws:iam::123456789012:role/ci", "key": "ASIALEAKTEST0000001",
                                      "source_key": "AKIALEAKSOURCE00001"]) { $1 }
        try JSONSerialization.data(withJSONObject: config).write(to: services.appendingPathComponent("config.json"))
        // posix_spawn, not Foundation's Process: with two Process children at once, one may never be reaped.
        let words: [String] = ["/usr/bin/env", "python3", LanesProcess.repositoryRoot.appendingPathComponent("Tests/Servers/aws_credential_services.py").path,
                               services.path, String(getpid())]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var server = pid_t()
        try #require(posix_spawn(&server, "/usr/bin/env", nil, nil, argv, envp) == 0)
        defer {
            kill(server, SIGKILL)
            var status: Int32 = 0
            waitpid(server, &status, 0)
        }
        var port: String?
        for _ in 0..<400 where port == nil {
            port = try? String(contentsOf: services.appendingPathComponent("port"), encoding: .utf8)
            if port == nil { Thread.sleep(forTimeInterval: 0.025) }
        }
        let standIn = "http://127.0.0.1:\(try #require(port))"
        let file = folder.appendingPathComponent("app.ipa")
        try "payload".write(to: file, atomically: true, encoding: .utf8)
        let tokenFile = folder.appendingPathComponent("web-token")
        try secrets["web_token"]!.write(to: tokenFile, atomically: true, encoding: .utf8)
        let proxyPassword = unique("proxypw")
        let common = ["HOME": folder.path, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "",
                      "AWS_EC2_METADATA_DISABLED": "true", "http_proxy": "http://ci:\(proxyPassword)@127.0.0.1:1",
                      "NO_PROXY": "127.0.0.1:\(try #require(port))"]  // STS direct, the upload through the proxy
        // A role assumed from a source profile's keys (in the stand-in's folder, which the scan skips).
        let sourceKeys = services.appendingPathComponent("credentials"), profiles = services.appendingPathComponent("aws-config")
        try "[base]\naws_access_key_id = \(config["source_key"]!)\naws_secret_access_key = \(secrets["source_secret"]!)\n"
            .write(to: sourceKeys, atomically: true, encoding: .utf8)
        try "[profile deploy]\nrole_arn = \(config["role_arn"]!)\nsource_profile = base\n".write(to: profiles, atomically: true, encoding: .utf8)
        let sources: [[String: String]] = [
            ["AWS_CONTAINER_CREDENTIALS_FULL_URI": standIn + "/container/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": secrets["container_token"]!],
            ["AWS_ROLE_ARN": config["role_arn"]!, "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile.path, "AWS_ENDPOINT_URL_STS": standIn],
            ["AWS_SHARED_CREDENTIALS_FILE": sourceKeys.path, "AWS_CONFIG_FILE": profiles.path, "AWS_PROFILE": "deploy", "AWS_ENDPOINT_URL_STS": standIn],
        ]
        let lanes = LanesProcess()
        for source in sources {
            let result = try lanes.run(["upload", file.path, "--to", "s3://builds/app.ipa", "--endpoint", "http://127.0.0.1:9/", "--json"],
                                       in: folder, extraEnvironment: common.merging(source) { $1 })
            #expect(result.status != 0)
            #expect(result.output.contains("proxy http://127.0.0.1:1"), "the upload went to the proxy: \(result.output)")
            for (name, value) in secrets.merging(["proxy password": proxyPassword]) { $1 } {
                #expect(!result.output.contains(value), "\(name) in the output")
            }
        }
        let requests = (try? String(contentsOf: services.appendingPathComponent("requests"), encoding: .utf8)) ?? ""
        #expect(requests.contains("/container/creds") && requests.contains("AssumeRoleWithWebIdentity") && requests.contains("Action=AssumeRole&"),
                "every source was used")
        for path in FileManager.default.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }) ?? [] where !path.hasPrefix("services") && path != "web-token" {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else { continue }
            for (name, value) in secrets where data.range(of: Data(value.utf8)) != nil { Issue.record("\(name) in \(path)") }
        }
        for directory in [lanes.cacheDirectory.path] {
            for path in FileManager.default.enumerator(atPath: directory)?.compactMap({ $0 as? String }) ?? [] {
                guard let data = FileManager.default.contents(atPath: directory + "/" + path) else { continue }
                for (name, value) in secrets where data.range(of: Data(value.utf8)) != nil { Issue.record("\(name) in the cache's \(path)") }
            }
        }
    }
}

/// Issue 21: precedence as the AWS CLI's. Keys in the environment win over `AWS_PROFILE` (an
/// environment variable), but a profile named on the command line (`--profile`) skips them.
@Suite struct UploadProfilePrecedenceTests {
    @Test func environmentKeysBeatAWSProfileButNotAnExplicitProfile() throws {
        let folder = LanesProcess.temporaryDirectory("upload-precedence")
        let services = folder.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let config = ["web_token": "w", "container_token": "c", "secret": "s", "session_token": "t", "role_arn": "arn:aws:iam::1:role/r", "key": "k"]
        try JSONSerialization.data(withJSONObject: config).write(to: services.appendingPathComponent("config.json"))
        let words: [String] = ["/usr/bin/env", "python3", LanesProcess.repositoryRoot.appendingPathComponent("Tests/Servers/aws_credential_services.py").path,
                               services.path, String(getpid())]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var server = pid_t()
        try #require(posix_spawn(&server, "/usr/bin/env", nil, nil, argv, envp) == 0)
        defer {
            kill(server, SIGKILL)
            var status: Int32 = 0
            waitpid(server, &status, 0)
        }
        var port: String?
        for _ in 0..<400 where port == nil {
            port = try? String(contentsOf: services.appendingPathComponent("port"), encoding: .utf8)
            if port == nil { Thread.sleep(forTimeInterval: 0.025) }
        }
        let standIn = "http://127.0.0.1:\(try #require(port))"
        let file = folder.appendingPathComponent("app.txt")
        try "payload".write(to: file, atomically: true, encoding: .utf8)
        let credentials = services.appendingPathComponent("credentials")
        try "[ci]\naws_access_key_id = AKIAFROMPROFILE00001\naws_secret_access_key = profile-secret\n".write(to: credentials, atomically: true, encoding: .utf8)
        let environment = ["HOME": folder.path, "AWS_ACCESS_KEY_ID": "AKIAFROMENVIRONMENT1", "AWS_SECRET_ACCESS_KEY": "environment-secret",
                           "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "ci", "AWS_SHARED_CREDENTIALS_FILE": credentials.path,
                           "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": "/nonexistent"]
        let lanes = LanesProcess()
        var signers: [String] = []
        for (key, extra) in [("environment.txt", [String]()), ("profile.txt", ["--profile", "ci"])] {
            let before = Self.s3Keys(services).count
            let result = try lanes.run(["upload", file.path, "--to", "s3://lanes-renew/\(key)", "--endpoint", standIn] + extra,
                                       in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            signers.append(Self.s3Keys(services).dropFirst(before).first ?? "none")
        }
        #expect(signers == ["AKIAFROMENVIRONMENT1", "AKIAFROMPROFILE00001"], "AWS_PROFILE after the keys; --profile before them")
    }

    /// The access key id of each request the stand-in S3 received, in order.
    static func s3Keys(_ services: URL) -> [String] {
        ((try? String(contentsOf: services.appendingPathComponent("s3requests"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["key"] as? String
        }
    }
}
