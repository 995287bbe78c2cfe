import Foundation
import Lanes
import LanesAppStoreConnect
import LanesMatch
import LanesPlatform
import LanesSigning
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP

/// `sync_code_signing readonly:false` against the local App Store Connect (every request and answer
/// checked against Apple's OpenAPI description): what is missing is created, what no longer fits is
/// renewed, and everything lands in the match repository as fastlane writes it.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10))) struct MatchCreationTests {
        let server: LocalAppStoreConnect
        static let signing = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesSigningTests/Fixtures").path
        static let matchFormat = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesMatchTests/match_format.py").path
        /// The signing fixtures' distribution certificate (FIXTURES.md).
        static let distSHA1 = "5F24FB844528D512C166665C383E203C5FA8ACFB"
        let password = "team match pass ✓"

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        func context(_ temp: TemporaryDirectory, remote: String) -> StepContext {
            let redactor = Redactor()
            let variables = ["MATCH_PASSWORD": password, "MATCH_GIT_URL": remote, "LANES_ASC_API_URL": server.base,
                             "APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID,
                             "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
                             "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH": server.keyPath]
            return StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: temp.path,
                               stateDirectory: temp.path + "/state-\(UUID().uuidString.prefix(6))", log: StepLog(redactor: redactor) { _ in },
                               cleanups: CleanupStack(), processes: NoChildProcesses())
        }

        func sync(readonly: Bool, certificateID: String? = nil, type: MatchType = .appstore, forceForNewDevices: Bool = false,
                  _ context: StepContext) async throws -> MatchSigningResult {
            do {
                let step = try SyncCodeSigning.resolve(["type": type, "app_identifier": ["works.sth.brewer"], "keychain_name": "ci",
                                                        "readonly": readonly, "certificate_id": certificateID,
                                                        "force_for_new_devices": forceForNewDevices], environment: context.environment)
                let result = try await step.run(in: context)
                _ = await context.cleanups.runAll()
                return result
            } catch {
                _ = await context.cleanups.runAll()
                throw error
            }
        }

        @Test func readonlyFalseCreatesTheCertificateAndProfileThenRenewsAProfileThatDoesNotListTheCertificate() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            let dist = Array(try Data(contentsOf: URL(fileURLWithPath: Self.signing + "/certs/dist.der")))
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"],
                              "bundleIds": [["id": "BUNDLE1", "attributes": ["identifier": "works.sth.brewer", "name": "Brewer", "platform": "IOS"]]],
                              // Already on the portal: the certificate `match import` adds later.
                              "certificates": [["id": "DISTID0001", "attributes": ["certificateType": "DISTRIBUTION", "name": "iPhone Distribution",
                                                                                   "certificateContent": Data(dist).base64EncodedString()]]]])
            let remote = temp.path + "/certificates.git"
            try await check(["git", "init", "-q", "--bare", remote])

            // 1. An empty repository: a certificate and a profile are created, committed, installed.
            let first = try await sync(readonly: false, context(temp, remote: remote))
            #expect(first.created.count == 3, "\(first.created)")
            let cer = try #require(first.created.first { $0.hasSuffix(".cer") })
            #expect(cer.hasPrefix("certs/distribution/CERT"))
            #expect(first.created.contains(String(cer.dropLast(4)) + ".p12"))
            #expect(first.created.contains("profiles/appstore/AppStore_works.sth.brewer.mobileprovision"))
            #expect(first.certificateName.hasPrefix("Apple Distribution: Example Corp (ABCDE12345)"))
            #expect(first.profiles.first?.name == "match AppStore works.sth.brewer")
            #expect(try await git(remote, "log", "-1", "--format=%s", "master") == "[fastlane] Updated appstore and platform ios")
            // What fastlane would read: the Python implementation decrypts the stored files.
            let checkout = temp.path + "/checkout"
            try await check(["git", "clone", "-q", "-b", "master", remote, checkout])
            let storedCertificate = try #require(try decrypt("\(checkout)/\(cer)"))
            #expect(try Certificate(der: storedCertificate).sha1 == first.certificateSHA1)
            let storedKey = try #require(try decrypt("\(checkout)/\(cer.dropLast(4)).p12"))
            #expect(SigningIdentity.isPEMPrivateKey(storedKey))
            #expect(try SigningIdentity.pair(certificateDER: storedCertificate, privateKeyPEM: storedKey, source: cer).certificate.sha1 == first.certificateSHA1)
            #expect(FileManager.default.fileExists(atPath: "\(checkout)/match_version.txt"))

            // 2. readonly:true reads back what was created: the same certificate and profile, nothing new.
            let reread = try await sync(readonly: true, context(temp, remote: remote))
            #expect(reread.certificateSHA1 == first.certificateSHA1)
            #expect(reread.profiles.map(\.uuid) == first.profiles.map(\.uuid))
            #expect(reread.created.isEmpty)

            // 3. Another certificate chosen (certificate_id): the stored profile does not list it, so it is renewed.
            try await check(["openssl", "pkcs12", "-in", Self.signing + "/p12/dist-emptypass-aes.p12", "-nocerts", "-nodes", "-passin", "pass:",
                       "-out", temp.path + "/dist.key.pem"])
            // Its file name is its portal id, as fastlane stores certificates.
            try Data(dist).write(to: URL(fileURLWithPath: temp.path + "/DISTID0001.cer"))
            let importContext = context(temp, remote: remote)
            _ = try await MatchImport.resolve(["type": MatchType.appstore, "cert_path": temp.path + "/DISTID0001.cer",
                                               "p12_path": temp.path + "/dist.key.pem"], environment: importContext.environment).run(in: importContext)
            _ = await importContext.cleanups.runAll()
            let renewed = try await sync(readonly: false, certificateID: "DISTID0001", context(temp, remote: remote))
            #expect(renewed.certificateSHA1 == Self.distSHA1)
            #expect(renewed.created == ["profiles/appstore/AppStore_works.sth.brewer.mobileprovision"])
            #expect(renewed.profiles.first?.uuid != first.profiles.first?.uuid)

            let log = try await server.log()
            let created = log["createdProfiles"] as? [[String: Any]] ?? []
            #expect(created.count == 2)
            #expect(created.last?["certificates"] as? [String] == ["DISTID0001"])
            #expect((log["deletedProfiles"] as? [String])?.count == 1, "the old profile of that name is deleted first, as fastlane's force does")
            #expect((log["createdCertificates"] as? [[String: Any]])?.count == 1)
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }

        /// Apple issued a certificate, then the profile failed (the bundle id is not registered): the
        /// certificate and its key are stored anyway, since they exist nowhere else.
        @Test func aCertificateCreatedBeforeAFailingProfileIsStillStored() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"]])
            let remote = temp.path + "/certificates.git"
            try await check(["git", "init", "-q", "--bare", remote])
            await #expect { try await sync(readonly: false, context(temp, remote: remote)) } throws: { "\($0)".contains("no bundle id works.sth.brewer") }
            let stored = try await git(remote, "ls-tree", "-r", "--name-only", "master").split(separator: "\n").map(String.init)
            #expect(stored.filter { $0.hasPrefix("certs/distribution/CERT") }.count == 2, "\(stored)")
            #expect(!stored.contains { $0.hasPrefix("profiles/") })
            #expect(try await git(remote, "log", "-1", "--format=%s", "master") == "[fastlane] Updated appstore and platform ios")
        }

        /// The push of what Apple issued fails (here the remote's branch is locked): nothing is
        /// thrown away; the encrypted files wait in a 0700 folder of the state directory, named in
        /// the error, and decrypt to the certificate and its key.
        @Test func filesThatCannotBePushedAreKeptEncryptedAndNamedInTheError() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"],
                              "bundleIds": [["id": "BUNDLE1", "attributes": ["identifier": "works.sth.brewer", "name": "Brewer", "platform": "IOS"]]]])
            let remote = temp.path + "/certificates.git"
            try await check(["git", "init", "-q", "--bare", remote])
            try Data().write(to: URL(fileURLWithPath: remote + "/refs/heads/master.lock"))
            let context = context(temp, remote: remote)
            var message = ""
            await #expect { try await sync(readonly: false, context) } throws: { error in
                message = "\(error)"
                return message.contains("kept encrypted in \(context.stateDirectory)/match-unpushed/") && message.contains("lanes match import --type appstore")
            }
            #expect(try await git(remote, "rev-parse", "--verify", "--quiet", "refs/heads/master") == "", "nothing reached the remote")
            let kept = context.stateDirectory + "/match-unpushed"
            let folders = try FileManager.default.contentsOfDirectory(atPath: kept)
            #expect(folders.count == 1)
            let folder = try #require(folders.first.map { kept + "/" + $0 })
            #expect(message.contains(folder))
            #expect((try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int) == 0o700)
            let cers = try FileManager.default.contentsOfDirectory(atPath: folder + "/certs/distribution").filter { $0.hasSuffix(".cer") }
            let cer = try #require(cers.first)
            let path = folder + "/certs/distribution/" + cer
            // Encrypted as the storage holds it; fastlane's algorithm (match_format.py) opens it.
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).hasPrefix("bWF0Y2hfZW5jcnlwdGVkX3Yy"))
            let der = try #require(try decrypt(path))
            let key = try #require(try decrypt(String(path.dropLast(4)) + ".p12"))
            #expect(try SigningIdentity.pair(certificateDER: der, privateKeyPEM: key, source: cer).certificate.sha1 == (try Certificate(der: der).sha1))
            #expect(FileManager.default.fileExists(atPath: folder + "/profiles/appstore/AppStore_works.sth.brewer.mobileprovision"))
        }

        /// A lane that syncs two types (development, then appstore: 3dollars' match_full) imports both
        /// identities into the one keychain the first call made; the second once failed on that
        /// keychain's lock ("in use by another lane"). The keychain goes when the lane ends.
        @Test func twoMatchCallsOfOneLaneShareItsKeychain() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"],
                              "bundleIds": [["id": "BUNDLE1", "attributes": ["identifier": "works.sth.brewer", "name": "Brewer", "platform": "IOS"]]],
                              "devices": [["id": "DEV1", "attributes": ["name": "DEV1", "udid": "00008030-001A2B3C4D5E6F70", "platform": "IOS",
                                                                       "status": "ENABLED"]]]])
            let remote = temp.path + "/certificates.git"
            try await check(["git", "init", "-q", "--bare", remote])
            let context = context(temp, remote: remote)
            var results: [MatchSigningResult] = []
            for type in [MatchType.development, .appstore] {
                let step = try SyncCodeSigning.resolve(["type": type, "app_identifier": ["works.sth.brewer"], "keychain_name": "ci",
                                                        "readonly": false], environment: context.environment)
                results.append(try await step.run(in: context))
            }
            #expect(results.map(\.certificate.keychainPath) == [results[0].certificate.keychainPath, results[0].certificate.keychainPath])
            #expect(results[0].certificate.signingIdentity.hasPrefix("Apple Development"))
            #expect(results[1].certificate.signingIdentity.hasPrefix("Apple Distribution"))
            let index = try String(contentsOfFile: results[0].certificate.keychainPath + "/index.json", encoding: .utf8)
            #expect(index.contains(results[0].certificate.certificate.sha1) && index.contains(results[1].certificate.certificate.sha1))
            _ = await context.cleanups.runAll()
            #expect(!FileManager.default.fileExists(atPath: results[0].certificate.keychainPath), "the lane's keychain is deleted at its end")
        }

        @Test func forceForNewDevicesRenewsAnAdHocProfileThatMissesADeviceAndOnlyThen() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            let device = { (id: String, udid: String, platform: String) -> [String: Any] in
                ["id": id, "attributes": ["name": id, "udid": udid, "platform": platform, "status": "ENABLED"]]
            }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"],
                              "bundleIds": [["id": "BUNDLE1", "attributes": ["identifier": "works.sth.brewer", "name": "Brewer", "platform": "IOS"]]],
                              // A Mac, which an iOS profile never lists.
                              "devices": [device("DEV1", "00008030-001A2B3C4D5E6F70", "IOS"), device("MAC1", "00006001-000A1B2C3D4E5F60", "MAC_OS")]])
            let remote = temp.path + "/certificates.git"
            try await check(["git", "init", "-q", "--bare", remote])
            let first = try await sync(readonly: false, type: .adhoc, context(temp, remote: remote))
            #expect(first.created.contains("profiles/adhoc/AdHoc_works.sth.brewer.mobileprovision"))

            // A device registered since: without force_for_new_devices the stored profile is used as it is.
            let key = try AppStoreConnectKey(keyID: LocalAppStoreConnect.keyID, issuerID: LocalAppStoreConnect.issuer, keyContent: server.keyPEM)
            let client = AppStoreConnectClient(key: key, baseURL: HTTPURL(server.base)!, registerSecret: { _ in })
            _ = try await client.registerDevices([(name: "QA iPad", udid: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678")], platform: "IOS")
            let unforced = try await sync(readonly: false, type: .adhoc, context(temp, remote: remote))
            #expect(unforced.created.isEmpty)
            #expect(unforced.profiles.map(\.uuid) == first.profiles.map(\.uuid))

            let forced = try await sync(readonly: false, type: .adhoc, forceForNewDevices: true, context(temp, remote: remote))
            #expect(forced.created == ["profiles/adhoc/AdHoc_works.sth.brewer.mobileprovision"])
            #expect(forced.certificateSHA1 == first.certificateSHA1, "the certificate stays")
            let installed = try ProvisioningProfileReader.read(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: try #require(forced.profiles.first).path))),
                                                               source: "renewed")
            #expect(Set(installed.provisionedDevices ?? []) == ["00008030-001A2B3C4D5E6F70", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"])
            // Up to date now: a second forced run keeps it.
            #expect(try await sync(readonly: false, type: .adhoc, forceForNewDevices: true, context(temp, remote: remote)).created.isEmpty)
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }

        func decrypt(_ path: String) throws -> [UInt8]? {
            let output = path + ".clear"
            defer { try? FileManager.default.removeItem(atPath: output) }
            var child = ChildProcess(["python3", Self.matchFormat, "decrypt", path],
                                     environment: ProcessInfo.processInfo.environment.merging(["MATCH_PASSWORD": password]) { $1 })
            child.standardOutput = .appending(path: output, mode: 0o600)
            let status = ChildProcess.wait(try child.start())
            guard status.exitCode == 0 else { return nil }
            return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        }

        func git(_ repository: String, _ arguments: String...) async throws -> String {
            try await Program.tool(["git", "-C", repository] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func check(_ arguments: [String]) async throws {
            let result = try await Program.streams(arguments)
            guard result.status == 0 else { throw LocalAppStoreConnect.StartFailure(description: "\(arguments.joined(separator: " ")): \(result.error)") }
        }
    }
}

/// The match steps start no child process: the keychain is a file.
struct NoChildProcesses: ProcessRunning {
    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        throw LocalAppStoreConnect.StartFailure(description: "the match steps start no process (the keychain is a file); asked for \(request.arguments.first ?? "?")")
    }
}
