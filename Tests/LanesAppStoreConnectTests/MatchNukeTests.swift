import Foundation
import Lanes
import LanesMatch
import LanesPlatform
import LanesTestSupport
import Testing

/// `match_nuke` against the local App Store Connect (every request checked against Apple's OpenAPI
/// description) and a real git storage: nothing goes before the second confirmation; then the
/// type's certificates are revoked, its profiles deleted and its files removed in one commit.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10))) struct MatchNukeTests {
        let server: LocalAppStoreConnect
        let password = "nuke pass"

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        /// CI=true: a developer's terminal never answers for the test.
        func context(_ temp: TemporaryDirectory, remote: String, extra: [String: String] = [:]) -> StepContext {
            let redactor = Redactor()
            let variables = ["MATCH_PASSWORD": password, "MATCH_GIT_URL": remote, "LANES_ASC_API_URL": server.base, "CI": "true",
                             "APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID,
                             "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
                             "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH": server.keyPath].merging(extra) { $1 }
            return StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: temp.path,
                               stateDirectory: temp.path + "/state-\(UUID().uuidString.prefix(6))", log: StepLog(redactor: redactor) { _ in },
                               cleanups: CleanupStack(), processes: NoChildProcesses())
        }

        func sync(_ type: MatchType, _ context: StepContext) async throws {
            do {
                let step = try SyncCodeSigning.resolve(["type": type, "app_identifier": ["works.sth.brewer"], "keychain_name": "ci-\(type.rawValue)",
                                                        "readonly": false], environment: context.environment)
                _ = try await step.run(in: context)
                _ = await context.cleanups.runAll()
            } catch {
                _ = await context.cleanups.runAll()
                throw error
            }
        }

        func nuke(_ arguments: StepArguments, _ context: StepContext) async throws -> MatchNukeResult {
            let result = try await MatchNuke.resolve(arguments, environment: context.environment).run(in: context)
            _ = await context.cleanups.runAll()
            return result
        }

        func stored(_ remote: String) async throws -> [String] {
            try await Program.tool(["git", "-C", remote, "ls-tree", "-r", "--name-only", "master"]).split(separator: "\n").map(String.init)
        }

        @Test func nothingGoesUntilConfirmedTwiceThenTheTypesCertificatesProfilesAndFilesGo() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"],
                                    "bundleIds": [["id": "BUNDLE1", "attributes": ["identifier": "works.sth.brewer", "name": "Brewer", "platform": "IOS"]]]])
            let remote = temp.path + "/certificates.git"
            _ = try await Program.run(["git", "init", "-q", "--bare", remote])
            // A distribution and a development certificate and profile, made as match makes them.
            try await sync(.appstore, context(temp, remote: remote))
            try await sync(.development, context(temp, remote: remote))
            let before = try await stored(remote)
            let distribution = before.filter { $0.hasPrefix("certs/distribution/") || $0.hasPrefix("profiles/appstore/") }
            #expect(distribution.count == 3, "\(before)")

            // 1. fastlane's readonly refuses; unattended without both confirmations nothing goes, whatever is set.
            await #expect { try await nuke(["type": MatchType.appstore, "readonly": true], context(temp, remote: remote)) } throws: {
                "\($0)".contains("readonly")
            }
            await #expect { try await nuke(["type": MatchType.appstore, "skip_confirmation": true], context(temp, remote: remote)) } throws: {
                "\($0)".contains("is on CI: nothing was deleted") && "\($0)".contains("LANES_MATCH_NUKE_TEAM=ABCDE12345")
            }
            await #expect { try await nuke(["type": MatchType.appstore], context(temp, remote: remote, extra: ["LANES_MATCH_NUKE_TEAM": "ABCDE12345"])) } throws: {
                "\($0)".contains("nothing was deleted")
            }
            await #expect {
                try await nuke(["type": MatchType.appstore, "skip_confirmation": true], context(temp, remote: remote, extra: ["LANES_MATCH_NUKE_TEAM": "ZZZZZ99999"]))
            } throws: { "\($0)".contains("belongs to ABCDE12345") }
            var log = try await server.log()
            #expect((log["revokedCertificates"] as? [String])?.isEmpty == true)
            #expect((log["deletedProfiles"] as? [String])?.isEmpty == true)
            #expect(try await stored(remote) == before)

            // 2. Confirmed twice: distribution goes, development stays.
            let result = try await nuke(["type": MatchType.appstore, "skip_confirmation": true],
                                        context(temp, remote: remote, extra: ["LANES_MATCH_NUKE_TEAM": "ABCDE12345"]))
            #expect(result.type == "distribution")
            #expect(result.team == "ABCDE12345")
            #expect(result.removedFiles == distribution.sorted())
            log = try await server.log()
            let created = log["createdCertificates"] as? [[String: Any]] ?? []
            let distributionID = try #require(created.first { $0["type"] as? String == "DISTRIBUTION" }?["id"] as? String)
            #expect(log["revokedCertificates"] as? [String] == [distributionID])
            #expect(result.revokedCertificates == [distributionID])
            let madeProfiles = log["createdProfiles"] as? [[String: Any]] ?? []
            #expect((log["deletedProfiles"] as? [String])?.count == 1)
            #expect(madeProfiles.count == 2)
            let after = try await stored(remote)
            #expect(after == before.filter { !distribution.contains($0) }, "\(after)")
            #expect(after.contains { $0.hasPrefix("certs/development/") } && after.contains { $0.hasPrefix("profiles/development/") })
            #expect(try await Program.tool(["git", "-C", remote, "log", "-1", "--format=%s", "master"])
                        .trimmingCharacters(in: .whitespacesAndNewlines) == "[fastlane] Nuked files for distribution")

            // 3. Nothing of the type left: a second nuke has nothing to do and asks nothing.
            let again = try await nuke(["type": MatchType.adhoc], context(temp, remote: remote))
            #expect(again.removedFiles.isEmpty && again.revokedCertificates.isEmpty && again.deletedProfiles.isEmpty)
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }

        /// A folder storage loses the type's files and nothing else; with no certificate or profile
        /// to read a team from, the word to confirm with is the type's kind.
        @Test func aFolderStorageLosesTheTypesFilesOnly() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["signingPortal": ["team": "ABCDE12345", "teamName": "Example Corp"]])
            let storage = temp.path + "/storage"
            let files = ["certs/enterprise/ENT1.cer", "certs/enterprise/ENT1.p12", "profiles/enterprise/InHouse_works.sth.brewer.mobileprovision",
                         "certs/development/DEV1.cer", "match_version.txt"]
            for file in files {
                try FileManager.default.createDirectory(atPath: storage + "/" + (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data("not read: \(file)".utf8).write(to: URL(fileURLWithPath: storage + "/" + file))
            }
            let arguments: StepArguments = ["type": MatchType.enterprise, "skip_confirmation": true, "storage_mode": storage]
            await #expect { try await nuke(arguments, context(temp, remote: "", extra: ["LANES_MATCH_NUKE_TEAM": "ABCDE12345"])) } throws: {
                "\($0)".contains("belongs to enterprise")
            }
            let result = try await nuke(arguments, context(temp, remote: "", extra: ["LANES_MATCH_NUKE_TEAM": "enterprise"]))
            #expect(result.removedFiles == files.prefix(3).sorted())
            for (index, file) in files.enumerated() {
                #expect(FileManager.default.fileExists(atPath: storage + "/" + file) == (index >= 3), "\(file)")
            }
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }
    }
}
