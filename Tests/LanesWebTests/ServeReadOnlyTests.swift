import Foundation
import LanesTestSupport
import Testing

/// Issue 21: `lanes serve` is read-only (it never creates a history) and keeps serving what it last
/// knew when the Lanefile stops compiling.
@Suite(.serialized) struct ServeReadOnlyTests {
    @Test func serveNeverCreatesAHistory() throws {
        let project = try WebProject()
        try? FileManager.default.removeItem(atPath: project.state)
        let server = try WebProject.Server(project: project)
        defer { server.stop() }
        for target in ["/history", "/api/runs", "/runs/1"] {
            let response = try server.get(target)
            #expect(response.status == 200 || response.status == 404, "\(target): \(response.status) \(response.body.prefix(300))")
        }
        #expect(!FileManager.default.fileExists(atPath: project.state + "/history.sqlite"), "lanes serve created a history")
    }

    @Test func aLanefileThatStopsCompilingServesWhatWasLastKnown() throws {
        let project = try WebProject()
        let server = try WebProject.Server(project: project)
        defer { server.stop() }
        let before = try server.get("/api/schedules")
        try #require(before.status == 200, "\(before.body.prefix(500))")
        let lanefile = project.directory.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        try (original + "\nthis does not compile\n").write(to: lanefile, atomically: true, encoding: .utf8)
        let after = try server.get("/api/schedules")
        #expect(after.status == 200, "\(after.body.prefix(500))")
        #expect(after.body == before.body)
        let page = try server.get("/")
        #expect(page.status == 200)
    }
}
