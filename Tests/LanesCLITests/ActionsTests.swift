import Foundation
import Testing

/// `lanes actions` and `lanes run`: steps documented and run from their own descriptions.
@Suite struct ActionsTests {
    let lanes = LanesProcess()

    @Test func actionsListsAndDocumentsSteps() throws {
        let directory = LanesProcess.temporaryDirectory("actions")
        let list = try lanes.run(["actions"], in: directory)
        #expect(list.status == 0, "\(list.output)")
        let lines = list.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("sh ") && $0.hasSuffix("Run a command (argv, no shell) and stream its output") })
        for id in ["import_certificate", "install_provisioning_profile", "update_project_provisioning", "number_of_commits"] {
            #expect(lines.contains { $0.hasPrefix(id + " ") }, "\(id) is listed")
        }
        let page = try lanes.run(["actions", "sh"], in: directory)
        #expect(page.standardOutput.contains("command ([String], required)"))
        #expect(page.standardOutput.contains("lanes run sh command:swift,--version"))
        let unknown = try lanes.run(["actions", "no_such_step"], in: directory)
        #expect(unknown.status == 64)
    }

    @Test func runExecutesAStepFromTheShell() throws {
        let directory = LanesProcess.temporaryDirectory("run")
        let result = try lanes.run(["run", "sh", "command:sh,-c,echo from-run"], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("from-run"))
        let failing = try lanes.run(["run", "sh", "command:false"], in: directory)
        #expect(failing.status == 1)
        let bad = try lanes.run(["run", "sh", "directory:x"], in: directory)
        #expect(bad.status == 78, "\(bad.output)")
        #expect(bad.standardError.contains("missing required option 'command'"))
    }

    @Test func initRefusesToOverwriteWithoutForce() throws {
        let directory = LanesProcess.temporaryDirectory("init")
        #expect(try lanes.run(["init"], in: directory).status == 0)
        let again = try lanes.run(["init"], in: directory)
        #expect(again.status == 78)
        #expect(again.standardError.contains("would overwrite"))
        #expect(try lanes.run(["init", "--force"], in: directory).status == 0)
    }
}
