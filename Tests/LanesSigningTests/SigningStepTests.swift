import LanesTestSupport
import Foundation
import Lanes
import LanesSigning
import Synchronization
import Testing

/// A lane context over a temporary state directory, with captured output.
struct StepHarness {
    let temp: TemporaryDirectory
    let context: StepContext
    let processes = RecordingProcesses()

    init(environment: [String: String] = [:]) throws {
        temp = try TemporaryDirectory()
        let lines = Mutex<[String]>([])
        let redactor = Redactor()
        let environment = Environment(variables: environment, redactor: redactor)
        context = StepContext(environment: environment, projectDirectory: Fixture.directory, stateDirectory: temp.path + "/state",
                              log: StepLog(redactor: redactor) { line in lines.withLock { $0.append(line) } },
                              cleanups: CleanupStack(), processes: processes)
    }

    var logged: [String] { context.log.lastLines }
    var keychainsDirectory: String { temp.path + "/state/keychains" }
}

struct SilentReporter: Reporter {
    func report(_ event: RunEvent) {}
}

/// Records child processes a step starts; on Linux the signing steps must start none.
final class RecordingProcesses: ProcessRunning {
    let requests = Mutex<[ProcessRequest]>([])
    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        requests.withLock { $0.append(request) }
        return ProcessOutcome(termination: .exited(0))
    }
    var count: Int { requests.withLock { $0.count } }
}

@Suite("Signing steps", .timeLimit(.minutes(10)))
struct SigningStepTests {
    @Test func importsIntoAFileKeychainThatTheCleanupRemoves() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try ImportCertificate.resolve([
            "keychain_name": "lane", "keychain_password": Secret(name: "KEYCHAIN_PASSWORD", value: "kc-pass"),
            "certificate_path": "p12/dist-legacy-rc2-3des.p12",
            "certificate_password": Secret(name: "CERTIFICATE_PASSWORD", value: "brewer-legacy-pass"),
        ])
        let result = try await step.run(in: harness.context)
        #expect(result.signingIdentity == Fixture.distCommonName)
        #expect(result.sha1 == Fixture.distSHA1)
        #expect(result.teamIdentifier == "ABCDE12345")
        #expect(result.keychainPath == harness.keychainsDirectory + "/lane.keychain")
        #expect(result.deletedAtLaneEnd)
        #expect(FileManager.default.fileExists(atPath: result.keychainPath))
        #expect(harness.logged.contains { $0.contains("imported '\(Fixture.distCommonName)' (SHA-1 \(Fixture.distSHA1)") })
        #expect(harness.processes.count == 0)

        #expect(await harness.context.cleanups.runAll().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: result.keychainPath))
    }

    /// A lane that imports a certificate and then fails, run by the lane executor: once it has
    /// run the cleanup stack (as on failure and on Ctrl-C), the keychain directory is gone, and
    /// deleting it again is harmless.
    @Test func keychainIsGoneAfterAFailingLane() async throws {
        let harness = try StepHarness(environment: ["CERTIFICATE_PASSWORD": "brewer-aes-pass", "KEYCHAIN_PASSWORD": "kc"])
        defer { harness.temp.remove() }
        let keychainPath = harness.keychainsDirectory + "/failing.keychain"
        let sawKeychain = Mutex(false)
        let lanefile = Lanefile {
            Lane("release", "Imports, then meets a tampered profile") {
                try await importCertificate(keychainName: "failing", keychainPassword: secret("KEYCHAIN_PASSWORD"),
                                            certificatePath: "p12/dist-openssl3-default-aes.p12",
                                            certificatePassword: secret("CERTIFICATE_PASSWORD"))
                sawKeychain.withLock { $0 = FileManager.default.fileExists(atPath: keychainPath) }
                try await installProvisioningProfile(path: "profiles/Brewer_Staging_Tampered.mobileprovision")
            }
        }
        let executor = LaneExecutor(lanefile: lanefile, context: harness.context, reporter: SilentReporter())
        let (lane, values) = try executor.prepare(lane: "release", options: [:])
        let kind = await executor.execute(lane, values: values)
        #expect(kind == .configuration)
        #expect(sawKeychain.withLock { $0 }, "the keychain existed while the lane ran")
        #expect(!FileManager.default.fileExists(atPath: keychainPath))
        #expect(harness.context.cleanups.isEmpty)
        try await FileKeychain(name: "failing", in: harness.keychainsDirectory, password: "kc").delete()
    }

    @Test func keptKeychainHasNoCleanup() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try ImportCertificate.resolve(["keychain_name": "kept", "certificate_path": "p12/dist-nopass-unencrypted.p12",
                                                  "keep_keychain": true])
        let result = try await step.run(in: harness.context)
        #expect(!result.deletedAtLaneEnd)
        #expect(harness.context.cleanups.isEmpty)
        #expect(FileManager.default.fileExists(atPath: result.keychainPath))
    }

    /// The error stays a `SigningError` (an OnError hook can match it), is a configuration error,
    /// and the log says where the password came from, never what it was.
    @Test func wrongPasswordIsAConfigurationErrorNamingTheVariable() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try ImportCertificate.resolve(["keychain_name": "k", "certificate_path": "p12/dist-3des-sha1.p12",
                                                  "certificate_password": Secret(name: "CERTIFICATE_PASSWORD", value: "hunter2-wrong")])
        let error = await #expect(throws: SigningError.self) { try await step.run(in: harness.context) }
        #expect(error?.lanesKind == .configuration)
        #expect(error?.description.contains("wrong password, or the file is damaged") == true)
        #expect(harness.logged.contains("hint: the password came from $CERTIFICATE_PASSWORD"))
        #expect(error?.description.contains("hunter2-wrong") == false)
        #expect(harness.context.cleanups.isEmpty, "nothing was created, so nothing to clean")
    }

    @Test func expiredCertificateIsRefusedBeforeAnyKeychainExists() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try ImportCertificate.resolve(["keychain_name": "k", "certificate_path": "p12/dist-expired.p12",
                                                  "certificate_password": Secret(name: "P", value: "brewer-expired-pass")])
        let error = await #expect(throws: SigningError.self) { try await step.run(in: harness.context) }
        #expect(error?.description.contains("expired on 2021-01-01T00:00:00Z") == true)
        #expect(!FileManager.default.fileExists(atPath: harness.keychainsDirectory))
    }

    @Test func readsOptionsAndSecretsFromTheEnvironment() async throws {
        let harness = try StepHarness(environment: [
            "KEYCHAIN_NAME": "from-env", "CERTIFICATE_PATH": "p12/dist-unicode-pass.p12",
            "CERTIFICATE_PASSWORD": Fixture.unicodePassword, "KEYCHAIN_PASSWORD": Fixture.shellPassword,
        ])
        defer { harness.temp.remove() }
        let result = try await ImportCertificate.resolve([:], environment: harness.context.environment).run(in: harness.context)
        #expect(result.keychainName == "from-env")
        #expect(harness.context.environment.redactor.isSecret(Fixture.unicodePassword))
        // Secrets may not be given as arguments.
        #expect(throws: ValidationErrors.self) {
            try ImportCertificate.resolve(StepArguments(text: ["certificate_password": "x"]), environment: harness.context.environment)
        }
        _ = await harness.context.cleanups.runAll()
    }

    @Test func randomKeychainPasswordNeverShowsInTheLog() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try ImportCertificate.resolve(["keychain_name": "random", "certificate_path": "p12/dist-emptypass-aes.p12"])
        _ = try await step.run(in: harness.context)
        let text = harness.logged.joined(separator: "\n")
        #expect(!text.isEmpty)
        // A random password is registered for redaction; a 64-hex-digit run never appears.
        #expect(text.range(of: "[0-9a-f]{64}", options: .regularExpression) == nil)
        _ = await harness.context.cleanups.runAll()
    }

    @Test func installsTheProfileUnderItsUUID() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try InstallProvisioningProfile.resolve(["path": "profiles/Brewer_Staging.mobileprovision", "trust": "certs/test-root.crt",
                                                           "app_identifier": "works.sth.brewer.staging"])
        let installed = try await step.run(in: harness.context)
        #expect(installed.installedPath == harness.temp.path + "/state/profiles/7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42.mobileprovision")
        #expect(installed.type == .adHoc)
        #expect(installed.profile.signature.isVerified)
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixture.profile("Brewer_Staging")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed.installedPath)) == original)
    }

    @Test(arguments: [
        ("Brewer_Staging_Expired", nil as String?, "ExpirationDate"),
        ("Brewer_Staging", "works.sth.other", "Entitlements.application-identifier"),
        ("Brewer_Staging_Tampered", nil, "signature invalid"),
        ("Brewer_Staging_Truncated", nil, "truncated"),
        ("Brewer_Staging_Unsigned", nil, "not a signed provisioning profile"),
    ])
    func refusesBadProfiles(name: String, appIdentifier: String?, expected: String) async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try InstallProvisioningProfile.resolve(["path": "profiles/\(name).mobileprovision", "app_identifier": appIdentifier])
        let error = await #expect(throws: (any Error).self) { try await step.run(in: harness.context) }
        #expect(String(describing: error!).contains(expected))
        #expect(String(describing: error!).contains("\(name).mobileprovision"))
        #expect(!FileManager.default.fileExists(atPath: harness.temp.path + "/state/profiles"))
    }

    @Test func untrustedSignerIsRefusedWhenATrustStoreIsGiven() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        let step = try InstallProvisioningProfile.resolve(["path": "profiles/Brewer_Staging.mobileprovision", "trust": "certs/test-wwdr.crt"])
        let error = await #expect(throws: ValidationErrors.self) { try await step.run(in: harness.context) }
        #expect(error?.description.contains("signature: not verified") == true)
    }

    /// Given the identity imported earlier in the lane, the profile must list it.
    @Test func checksTheProfileAgainstTheImportedCertificate() async throws {
        let harness = try StepHarness()
        defer { harness.temp.remove() }
        _ = try await ImportCertificate.resolve(["keychain_name": "k", "certificate_path": "p12/dist-with-chain.p12",
                                                 "certificate_password": Secret(name: "P", value: "brewer-chain-pass")])
            .run(in: harness.context)
        let staging = try InstallProvisioningProfile.resolve(["path": "profiles/Brewer_Staging.mobileprovision",
                                                              "app_identifier": "works.sth.brewer.staging"])
        let error = await #expect(throws: ValidationErrors.self) { try await staging.run(in: harness.context) }
        #expect(error?.problems.count == 1)
        #expect(error?.description.contains("DeveloperCertificates: does not contain certificate") == true)
        let enterprise = try InstallProvisioningProfile.resolve(["path": "profiles/Brewer_Enterprise.mobileprovision", "trust": "certs/test-root.crt",
                                                                 "app_identifier": "works.sth.brewer.enterprise"])
        let installed = try await enterprise.run(in: harness.context)
        #expect(installed.type == .enterprise)
        _ = await harness.context.cleanups.runAll()
    }
}
