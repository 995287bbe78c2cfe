import Foundation
import LanesTestSupport
import Testing

/// Issue 21: `lanes serve` is read-only (it never creates a history) and keeps serving what it last
/// knew when the Lanefile stops compiling.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ServeReadOnlyTests {
    @Test func serveNeverCreatesAHistory() async throws {
        let project = try WebProject()
        try? FileManager.default.removeItem(atPath: project.state)
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        for target in ["/history", "/api/runs", "/runs/1"] {
            let response = try server.get(target)
            #expect(response.status == 200 || response.status == 404, "\(target): \(response.status) \(response.body.prefix(300))")
        }
        #expect(!FileManager.default.fileExists(atPath: project.state + "/history.sqlite"), "lanes serve created a history")
    }

    @Test func aLanefileThatStopsCompilingServesWhatWasLastKnown() async throws {
        let project = try WebProject()
        let server = try await WebProject.Server(project: project)
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

/// Issue 21: when `accept` fails (out of descriptors) `lanes serve` says so and keeps accepting.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ServeAcceptFailureTests {
    @Test func runningOutOfDescriptorsIsWaitedOutNotTheEnd() async throws {
        let project = try WebProject()
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        #expect(try server.get("/history").status == 200)
        // Lower the running server's descriptor limit (prlimit, util-linux), then hold connections
        // that never send a head until accept() fails with EMFILE.
        let limit = try await Program.run(["prlimit", "--pid", String(server.program.pid), "--nofile=64:64"])
        try #require(limit.status == 0, "\(limit.output)")
        var held: [Int32] = []
        for _ in 0..<80 { if let socket = try? ServerLimitTests.dial(server.port) { held.append(socket) } }
        let deadline = Date().addingTimeInterval(15)
        var reported = false
        while !reported, Date() < deadline {
            reported = server.errorLog.contains("cannot accept connections")
            if !reported { try? await Task.sleep(for: .milliseconds(100)) }
        }
        held.forEach { close($0) }
        #expect(reported, "accept() never failed, or the failure was not reported")
        #expect(server.program.isRunning, "lanes serve ended when accept() failed")
        // Served again once descriptors are free.
        var status = 0
        let again = Date().addingTimeInterval(20)
        while status != 200, Date() < again {
            status = (try? server.get("/history").status) ?? 0
            if status != 200 { try? await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(status == 200)
    }
}
