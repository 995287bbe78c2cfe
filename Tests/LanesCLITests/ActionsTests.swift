import LanesTestSupport
import Foundation
import Testing

/// `lanes actions` and `lanes run`: steps documented and run from their own descriptions.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ActionsTests {
    let lanes = LanesCommandLine()

    @Test func actionsListsAndDocumentsSteps() async throws {
        let directory = LanesCommandLine.temporaryDirectory("actions")
        let list = try await lanes.run(["actions"], in: directory)
        #expect(list.status == 0, "\(list.output)")
        let lines = list.standardOutput.split(separator: "\n").map { $0.trimmingPrefix("  ") }
        #expect(lines.contains { $0.hasPrefix("sh ") && $0.hasSuffix("Run a command (argv, no shell) and stream its output") })
        #expect(lines.contains("signing:") && lines.contains("git:"), "grouped by category")
        for id in ["import_certificate", "install_provisioning_profile", "update_project_provisioning", "number_of_commits"] {
            #expect(lines.contains { $0.hasPrefix(id + " ") }, "\(id) is listed")
        }
        let page = try await lanes.run(["actions", "sh"], in: directory)
        #expect(page.standardOutput.contains("command ([String], required)"))
        #expect(page.standardOutput.contains("lanes run sh command:swift,--version"))
        let unknown = try await lanes.run(["actions", "no_such_step"], in: directory)
        #expect(unknown.status == 64)
    }

    /// The fastlane map from the command line: every action with a status, steps by their function.
    @Test func actionsFastlaneJSONMapsActionsToSteps() async throws {
        let directory = LanesCommandLine.temporaryDirectory("actions-fastlane")
        let result = try await lanes.run(["actions", "--fastlane", "--json"], in: directory)
        #expect(result.status == 0, "\(result.output)")
        let actions = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let scan = try #require(actions.first { ($0["aliases"] as? [String])?.contains("scan") == true })
        #expect(scan["action"] as? String == "run_tests" && scan["function"] as? String == "runTests")
        #expect((scan["options"] as? [String: String])?["only_testing"] == "only_testing")
        #expect(Set(actions.compactMap { $0["status"] as? String }).isSubset(of: ["step", "lanefile", "implicit", "not_supported", "coming"]))
        let text = try await lanes.run(["actions", "--fastlane"], in: directory)
        #expect(text.standardOutput.contains("implicit: lanes runs every lane with its own temporary keychain"))
        #expect(try await lanes.run(["actions", "--fastlane", "sh"], in: directory).status == 64)
    }

    @Test func actionsJSONDescribesEveryStep() async throws {
        let result = try await lanes.run(["actions", "--json"], in: LanesCommandLine.temporaryDirectory("actions-json"))
        #expect(result.status == 0, "\(result.output)")
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(steps.count >= 16)
        let importCertificate = try #require(steps.first { $0["id"] as? String == "import_certificate" })
        #expect(importCertificate["category"] as? String == "signing")
        #expect(importCertificate["result"] as? String == "ImportedCertificate")
        let options = try #require(importCertificate["options"] as? [[String: Any]])
        let password = try #require(options.first { $0["name"] as? String == "certificate_password" })
        #expect(password["env"] as? String == "CERTIFICATE_PASSWORD" && password["secret"] as? Bool == true)
        let keep = try #require(options.first { $0["name"] as? String == "keep_keychain" })
        #expect(keep["default"] as? String == "false" && keep["required"] as? Bool == false)
        let examples = try #require(importCertificate["examples"] as? [[String: Any]])
        #expect(examples.allSatisfy { $0["swift"] is String && $0["command_line"] is String })
    }

    /// A step's result is shown for a person, or as JSON, never as a Swift debug dump.
    @Test func runShowsTheResultReadably() async throws {
        let directory = LanesCommandLine.temporaryDirectory("run-result")
        _ = try await Program.tool(["git", "init", "-q", "-b", "main", directory.path])
        let text = try await lanes.run(["run", "git_branch"], in: directory)
        #expect(text.status == 0, "\(text.output)")
        #expect(text.standardOutput.contains("Result:\n  main\n"))
        #expect(!text.standardOutput.contains("Optional("))
        let json = try await lanes.run(["run", "git_branch", "--json"], in: directory)
        #expect(json.standardOutput.contains(#"{"event":"result","value":"main"}"#), "\(json.output)")
    }

    /// Run alone, import_certificate keeps its keychain (nothing later in a lane would use it) and
    /// says where it is; the certificate password stays out of the output.
    @Test func runImportCertificateKeepsTheKeychainAndSaysWhere() async throws {
        let directory = LanesCommandLine.temporaryDirectory("run-import")
        let certificate = LanesCommandLine.repositoryRoot.appendingPathComponent("Example/codesigning/ios_distribution.p12").path
        let result = try await lanes.run(["run", "import_certificate", "keychain_name:oneoff", "certificate_path:\(certificate)"], in: directory,
                                   extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"])
        #expect(result.status == 0, "\(result.output)")
        let keychain = directory.appendingPathComponent(".lanes/keychains/oneoff.keychain").path
        #expect(result.standardOutput.contains("keychain: oneoff at \(keychain) (kept)"), "\(result.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: keychain))
        #expect(!result.output.contains("brewer-3des-pass"))
    }

    @Test func runExecutesAStepFromTheShell() async throws {
        let directory = LanesCommandLine.temporaryDirectory("run")
        let result = try await lanes.run(["run", "sh", "command:sh,-c,echo from-run"], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("from-run"))
        let failing = try await lanes.run(["run", "sh", "command:false"], in: directory)
        #expect(failing.status == 1)
        let bad = try await lanes.run(["run", "sh", "directory:x"], in: directory)
        #expect(bad.status == 78, "\(bad.output)")
        #expect(bad.standardError.contains("missing required option 'command'"))
    }

    @Test func initRefusesToOverwriteWithoutForce() async throws {
        let directory = LanesCommandLine.temporaryDirectory("init")
        #expect(try await lanes.run(["init"], in: directory).status == 0)
        let again = try await lanes.run(["init"], in: directory)
        #expect(again.status == 78)
        #expect(again.standardError.contains("would overwrite"))
        #expect(try await lanes.run(["init", "--force"], in: directory).status == 0)
    }
}
