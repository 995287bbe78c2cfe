import Foundation
import Lanes
import LanesMatch
import LanesSigning
import LanesTestSupport
import Testing

@Suite("sync_code_signing", .timeLimit(.minutes(10)))
struct SyncCodeSigningTests {
    @Test func importsTheNewestValidCertificateAndInstallsEveryProfileFromAFolder() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer", "works.sth.brewer.staging"],
                                                "readonly": true, "storage_mode": "storage", "keychain_name": "ci"])
        let result = try await step.run(in: harness.context)

        #expect(result.certificateSHA1 == MatchFixture.distSHA1)
        #expect(result.certificateName == MatchFixture.distName)
        #expect(result.certificateStoredPath == "certs/distribution/DISTID0001.cer")
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.hasPrefix("certs/distribution/ZEXPIRED01.cer: skipped") == true)
        #expect(harness.logged.contains { $0.contains("warning: certs/distribution/ZEXPIRED01.cer: skipped") && $0.contains("expired") })
        #expect(result.profiles.map(\.appIdentifier) == ["works.sth.brewer", "works.sth.brewer.staging"])
        #expect(result.profiles.map(\.uuid) == MatchFixture.profiles.prefix(2).map(\.uuid))
        for profile in result.profiles {
            #expect(profile.path == "\(harness.stateDirectory)/profiles/\(profile.uuid).mobileprovision")
            #expect(FileManager.default.fileExists(atPath: profile.path))
            #expect(profile.teamIdentifier == "ABCDE12345")
        }
        // fastlane's variables for later steps' child processes.
        let exported = harness.context.values[LaneEnvironmentAdditions.self] ?? [:]
        #expect(exported["sigh_works.sth.brewer_appstore"] == MatchFixture.profiles[0].uuid)
        #expect(exported["sigh_works.sth.brewer.staging_appstore_profile-name"] == "match AppStore works.sth.brewer.staging")
        #expect(exported["sigh_works.sth.brewer_appstore_profile-path"] == result.profiles[0].path)
        #expect(exported["sigh_works.sth.brewer_appstore_team-id"] == "ABCDE12345")
        #expect(exported["sigh_works.sth.brewer_appstore_certificate-name"] == MatchFixture.distName)
        // The JSON result names the SHA-1 and each UUID.
        let json = result.report.json
        #expect("\(json)".contains(MatchFixture.distSHA1))
        #expect(MatchFixture.profiles.prefix(2).allSatisfy { "\(json)".contains($0.uuid) })

        // No clear private key anywhere lanes wrote (the keychain holds it encrypted).
        #expect(files(under: harness.stateDirectory, containing: "BEGIN PRIVATE KEY").isEmpty)
        #expect(await harness.context.cleanups.runAll().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: result.certificate.keychainPath))
    }

    @Test func readsABranchOfAGitRepositoryWithAPKCS12KeyAndATvOSProfile() async throws {
        let fixture = try await MatchFixture(keyAsPKCS12: true)
        defer { fixture.temp.remove() }
        let remote = try await fixture.gitRepository(branch: "team-b")
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password, "MATCH_GIT_URL": remote, "MATCH_GIT_BRANCH": "team-b"],
                                       project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer.tv"], "readonly": true,
                                                "platform": MatchPlatform.tvos, "keychain_name": "ci", "team_id": "ABCDE12345",
                                                "shallow_clone": true],
                                               environment: harness.context.environment)
        let result = try await step.run(in: harness.context)
        // shallow_clone cannot be honoured with libgit2 1.5: said once a lane, however often match runs.
        let again = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer.tv"], "readonly": true,
                                                 "platform": MatchPlatform.tvos, "keychain_name": "ci2", "shallow_clone": true],
                                                environment: harness.context.environment)
        #expect(try await again.run(in: harness.context).certificateSHA1 == MatchFixture.distSHA1)
        #expect(harness.logged.filter { $0.contains("shallow_clone is ignored") }.count == 1)
        #expect(result.certificateSHA1 == MatchFixture.distSHA1)
        #expect(result.profiles.map(\.uuid) == [MatchFixture.profiles[2].uuid])
        let exported = harness.context.values[LaneEnvironmentAdditions.self] ?? [:]
        #expect(exported["sigh_works.sth.brewer.tv_appstore_tvos"] == MatchFixture.profiles[2].uuid)
        // While the lane runs, the private folder holds only the bare repository (encrypted files).
        let scratch = harness.stateDirectory + "/match"
        #expect(files(under: scratch, containing: "BEGIN PRIVATE KEY").isEmpty)
        #expect(try permissions(scratch) == 0o700)
        _ = await harness.context.cleanups.runAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    @Test func masterIsTheDefaultBranchAndAMissingBranchSaysSo() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let remote = try await fixture.gitRepository(branch: "team-b")
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                "git_url": remote, "keychain_name": "ci"])
        await #expect { try await step.run(in: harness.context) } throws: { error in
            "\(error)".contains("no certificate in certs/distribution/")
        }
        _ = await harness.context.cleanups.runAll()
    }

    @Test func aWrongPasswordNamesTheVariableAndTheFileAndChangesNothing() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": "not the password"], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                "storage_mode": "storage", "keychain_name": "ci"])
        await #expect { try await step.run(in: harness.context) } throws: { error in
            let text = "\(error)"
            return text.contains("MATCH_PASSWORD") && text.contains("certs/distribution/DISTID0001.cer") && error.lanesKind == .configuration
        }
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/keychains/ci.keychain"))
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/profiles"))
        #expect(harness.logged.allSatisfy { !$0.contains(fixture.password) && !$0.contains("not the password") })
    }

    @Test func aMissingPasswordIsOneClearError() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: [:], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                "storage_mode": "storage"])
        await #expect { try await step.run(in: harness.context) } throws: { "\($0)".contains("MATCH_PASSWORD is not set") }
    }

    @Test func aTruncatedProfileNamesItsFile() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let path = "\(fixture.storage)/\(MatchFixture.profiles[0].storedPath)"
        let stored = try MatchFixture.bytes(path)
        try Data(stored.prefix(stored.count / 2)).write(to: URL(fileURLWithPath: path))
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                "storage_mode": "storage", "keychain_name": "ci"])
        await #expect { try await step.run(in: harness.context) } throws: { "\($0)".contains(MatchFixture.profiles[0].storedPath) }
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/keychains/ci.keychain"))
    }

    /// Creating needs App Store Connect: without a key the error says what was missing and which variables to set.
    @Test func readonlyFalseWithoutAnAPIKeyNamesWhatItMustCreateAndTheKeyVariables() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.unknown"], "readonly": false,
                                                "storage_mode": "storage", "keychain_name": "ci"])
        await #expect { try await step.run(in: harness.context) } throws: { error in
            let text = "\(error)"
            return text.contains("readonly:false must create") && text.contains("APP_STORE_CONNECT_API_KEY_KEY_ID")
        }
        #expect(harness.logged.contains { $0.contains("AppStore_works.sth.unknown.mobileprovision") })
    }

    /// What a killed run left (its process is gone) is removed by the next run.
    @Test func theNextRunSweepsWhatAKilledRunLeft() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let dead = try Program.start(["/bin/true"])
        _ = await dead.finish()
        let leftover = "\(harness.stateDirectory)/match/\(dead.pid)-0123456789ab"
        try FileManager.default.createDirectory(atPath: leftover + "/repository.git", withIntermediateDirectories: true)
        let mine = "\(harness.stateDirectory)/match/\(ProcessInfo.processInfo.processIdentifier)-live"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        let step = try SyncCodeSigning.resolve(["type": MatchType.appstore, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                "storage_mode": "storage", "keychain_name": "ci"])
        _ = try await step.run(in: harness.context)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.fileExists(atPath: mine), "a live process's folder stays")
        _ = await harness.context.cleanups.runAll()
    }
}

@Suite("match_import, change_password, decrypt", .timeLimit(.minutes(10)))
struct MatchWriteTests {
    @Test func importEncryptsAsFastlaneAndCommitsOnceThenSyncReadsItBack() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let remote = try await fixture.gitRepository(branch: "master")
        let env = ["MATCH_PASSWORD": fixture.password, "MATCH_GIT_URL": remote]
        let harness = try MatchHarness(environment: env, project: fixture.temp.path)
        defer { harness.temp.remove() }
        let before = try await Program.tool(["git", "-C", remote, "rev-list", "--count", "master"])
        let step = try MatchImport.resolve(["type": MatchType.adhoc, "cert_path": "clear/certs/distribution/DISTID0001.cer",
                                            "p12_path": "\(MatchFixture.signing)/p12/dist-emptypass-aes.p12",
                                            "profile_path": "clear/\(MatchFixture.profiles[0].storedPath)"],
                                           environment: harness.context.environment)
        let written = try await step.run(in: harness.context)
        _ = await harness.context.cleanups.runAll()
        #expect(written == ["certs/distribution/DISTID0001.cer", "certs/distribution/DISTID0001.p12",
                            "profiles/adhoc/AdHoc_works.sth.brewer.mobileprovision"])
        let after = try await Program.tool(["git", "-C", remote, "rev-list", "--count", "master"])
        #expect(Int(after.trimmingCharacters(in: .whitespacesAndNewlines)) == Int(before.trimmingCharacters(in: .whitespacesAndNewlines))! + 1)
        #expect(try await Program.tool(["git", "-C", remote, "log", "-1", "--format=%s", "master"]).contains("[fastlane] Updated adhoc and platform ios"))

        // Python (fastlane's algorithm) decrypts every written file to the bytes given.
        let checkout = fixture.temp.path + "/verify"
        try await MatchFixture.run(["git", "clone", "-q", "-b", "master", remote, checkout])
        let expected: [String: [UInt8]] = [
            "certs/distribution/DISTID0001.cer": try MatchFixture.bytes("\(fixture.clear)/certs/distribution/DISTID0001.cer"),
            "certs/distribution/DISTID0001.p12": try MatchFixture.bytes("\(MatchFixture.signing)/p12/dist-emptypass-aes.p12"),
            "profiles/adhoc/AdHoc_works.sth.brewer.mobileprovision": try MatchFixture.bytes("\(fixture.clear)/\(MatchFixture.profiles[0].storedPath)"),
        ]
        for (path, bytes) in expected {
            #expect(try MatchFixture.pythonDecrypt("\(checkout)/\(path)", password: fixture.password) == bytes, "\(path)")
        }

        let sync = try MatchHarness(environment: env, project: fixture.temp.path)
        defer { sync.temp.remove() }
        let result = try await SyncCodeSigning.resolve(["type": MatchType.adhoc, "app_identifier": ["works.sth.brewer"], "readonly": true,
                                                        "keychain_name": "ci"], environment: sync.context.environment).run(in: sync.context)
        #expect(result.certificateSHA1 == MatchFixture.distSHA1)
        _ = await sync.context.cleanups.runAll()
    }

    @Test func importRefusesAStorageOfAnotherPassword() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let remote = try await fixture.gitRepository(branch: "master")
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": "other", "MATCH_GIT_URL": remote], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let step = try MatchImport.resolve(["type": MatchType.appstore, "cert_path": "clear/certs/distribution/DISTID0001.cer",
                                            "p12_path": "clear/certs/distribution/DISTID0001.p12"], environment: harness.context.environment)
        await #expect { try await step.run(in: harness.context) } throws: { "\($0)".contains("MATCH_PASSWORD") }
        _ = await harness.context.cleanups.runAll()
        #expect(try await Program.tool(["git", "-C", remote, "rev-list", "--count", "master"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func changePasswordReencryptsEveryFileInOneCommit() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let remote = try await fixture.gitRepository(branch: "team-b")
        let newPassword = "new team passphrase"
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password, "MATCH_NEW_PASSWORD": newPassword],
                                       project: fixture.temp.path)
        defer { harness.temp.remove() }
        let changed = try await MatchChangePassword.resolve(["git_url": remote, "git_branch": "team-b"]).run(in: harness.context)
        _ = await harness.context.cleanups.runAll()
        #expect(changed.count == 7)
        #expect(try await Program.tool(["git", "-C", remote, "rev-list", "--count", "team-b"]).trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        let checkout = fixture.temp.path + "/verify"
        try await MatchFixture.run(["git", "clone", "-q", "-b", "team-b", remote, checkout])
        for path in changed {
            #expect(try MatchFixture.pythonDecrypt("\(checkout)/\(path)", password: newPassword) == MatchFixture.bytes("\(fixture.clear)/\(path)"), "\(path)")
            #expect(try MatchFixture.pythonDecrypt("\(checkout)/\(path)", password: fixture.password) == nil)
        }
        #expect(harness.logged.allSatisfy { !$0.contains(newPassword) && !$0.contains(fixture.password) })
    }

    @Test func decryptWritesPrivateClearFiles() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        let output = fixture.temp.path + "/decrypted"
        let written = try await MatchDecrypt.resolve(["storage_mode": "storage", "output": output]).run(in: harness.context)
        #expect(written.count == 7)
        for path in written {
            #expect(try MatchFixture.bytes("\(output)/\(path)") == MatchFixture.bytes("\(fixture.clear)/\(path)"))
            #expect(try permissions("\(output)/\(path)") == 0o600)
        }
        #expect(try permissions(output) == 0o700)
        #expect(harness.logged.contains { $0.contains("warning:") && $0.contains("private keys") })
    }
}
