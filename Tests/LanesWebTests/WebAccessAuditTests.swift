import Foundation
import LanesCron
import LanesPlatform
import LanesSchedule
import LanesTestSupport
import Testing

/// Issue 31: the loopback page was every local user's (no token), a client that stops reading a
/// large log held its whole text, and a Lanefile broken before the first request gave `/` a 500
/// and `/api/schedules` an HTML error page.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WebAccessAuditTests {
    @Test func aLoopbackRequestWithoutTheTokenIsRefused() async throws {
        let project = try WebProject()
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        for target in ["/", "/history", "/api/runs", "/runs/1/log", "/static/site.css"] {
            let anonymous = try server.get(target, signedIn: false)
            #expect(anonymous.status == 401, "\(target): \(anonymous.status)")
            #expect(!anonymous.body.contains(server.token))
        }
        #expect(try server.get("/", signedIn: false, headers: ["Cookie": "lanes_token=wrong-\(server.token)"]).status == 401)
        #expect(try server.get("/", signedIn: false, headers: ["Authorization": "Bearer \(server.token)"]).status == 200)
        #expect(try server.get("/history").status == 200, "the cookie the login sets")
        // The Host check stays: a DNS-rebinding page holding the cookie is still refused.
        let rebound = try RawHTTP.request(port: server.port, "/", host: "attacker.example:\(server.port)",
                                          headers: ["Cookie": "lanes_token=\(server.token)"])
        #expect(rebound.status == 403 || rebound.status == 401, "\(rebound.status)")
    }

    @Test func theLoginAddressHandsTheBrowserACookie() async throws {
        let project = try WebProject()
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        let login = try server.get("/login?token=\(server.token)", signedIn: false)
        #expect(login.status == 303, "\(login.status) \(login.body)")
        #expect(login.headers["location"] == "/")
        let cookie = try #require(login.headers["set-cookie"])
        #expect(cookie.contains("lanes_token=\(server.token)") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        #expect(try server.get("/login?token=nope", signedIn: false).status == 401)
        // The address was printed for the owner, on lanes serve's standard error only: the line after
        // the one the server's start waited for, so it may still be on its way.
        #expect(await server.program.waitForOutput("/login?token=\(server.token)"), "\(server.errorLog)")
    }

    @Test func theTokenIsKept0600InThe0700StateFolderAndReused() async throws {
        let project = try WebProject()
        try? FileManager.default.removeItem(atPath: project.state)
        let first = try await WebProject.Server(project: project)
        let token = first.token
        first.stop()
        #expect(try permissions(project.state) == 0o700)
        #expect(try permissions(project.state + "/web-token") == 0o600)
        let second = try await WebProject.Server(project: project)
        defer { second.stop() }
        #expect(second.token == token, "a browser signed in once stays signed in")
        // A token file others could read is not trusted: a new one replaces it.
        second.stop()
        chmod(project.state + "/web-token", 0o644)
        let third = try await WebProject.Server(project: project)
        defer { third.stop() }
        #expect(third.token != token)
        #expect(try permissions(project.state + "/web-token") == 0o600)
    }

    /// Eight clients that never read a 50 MB log held 796 MB for 40 s. The log is now sent from
    /// the file a piece at a time, and each client is dropped 10 s after it stops reading.
    @Test func clientsThatNeverReadALargeLogAreDroppedInBoundedMemory() async throws {
        let project = try WebProject()
        let store = try project.store()
        let id = try #require(try store.record([NewRun(lane: "build", trigger: .manual, scheduled: nil, status: .starting)], cursors: [:]).first)
        let folder = "\(project.logs)/\(id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let line = Array(String(repeating: "x", count: 99).utf8) + [10]
        let chunk = Data((0..<10_000).flatMap { _ in line })
        FileManager.default.createFile(atPath: folder + "/output.log", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/output.log"))
        for _ in 0..<50 { handle.write(chunk) }
        try handle.close()
        try store.markRunning([StartedRun(id: id, processID: 1, started: SystemCronClock().now(), logPath: folder + "/output.log", folder: folder)])
        try store.finish(id: id, status: .succeeded, exitStatus: 0, ended: SystemCronClock().now())

        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        let pid = server.program.pid
        // Each connection holds a descriptor of the server while it is served.
        let idle = descriptors(of: pid)
        var clients: [Int32] = []
        for index in 0..<8 {
            let client = try ServerLimitTests.dial(server.port)
            let target = index % 2 == 0 ? "/runs/\(id)/log" : "/runs/\(id)"
            ServerLimitTests.transmit(client, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nCookie: lanes_token=\(server.token)\r\n\r\n")
            clients.append(client)
        }
        defer { clients.forEach { close($0) } }
        #expect(await ServerLimitTests.eventually(within: 30) { descriptors(of: pid) >= idle + 4 }, "the plain logs are being served")
        let dropped = await ServerLimitTests.eventually(within: 40) { descriptors(of: pid) <= idle }
        #expect(dropped, "the server still holds \(descriptors(of: pid) - idle) clients that never read")
        let peak = peakResidentMebibytes(of: pid)
        #expect(peak < 150, "lanes serve peaked at \(peak) MiB")
        // Reading now: each got less than the whole log before it was dropped.
        for client in clients { #expect(ServerLimitTests.readAll(client).utf8.count < 50_000_000) }
        #expect(server.program.isRunning)
    }

    @Test func aLanefileBrokenBeforeTheFirstRequestKeepsWhatServeStartedWith() async throws {
        let project = try WebProject()
        let expected = try await project.lanes(["schedule", "--json"])
        try #require(expected.status == 0, "\(expected.output)")
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        let lanefile = project.directory.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        try (original + "\nthis does not compile\n").write(to: lanefile, atomically: true, encoding: .utf8)
        let page = try server.get("/")
        #expect(page.status == 200, "\(page.body.prefix(500))")
        #expect(page.body.contains("broken"), "the schedules known at start")
        let api = try server.get("/api/schedules")
        #expect(api.status == 200, "\(api.body.prefix(500))")
        #expect(api.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(api.body.contains("\"lane\":\"broken\""), "\(api.body.prefix(300))")
    }

    @Test func aLanefileThatNeverCompiledGivesAPageAndJSONThatSaySo() async throws {
        let project = try WebProject()
        let lanefile = project.directory.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        try (original + "\nthis does not compile\n").write(to: lanefile, atomically: true, encoding: .utf8)
        let server = try await WebProject.Server(project: project)
        defer { server.stop() }
        let api = try server.get("/api/schedules")
        #expect(api.headers["content-type"]?.hasPrefix("application/json") == true, "\(api.headers)")
        let parsed = try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any]
        #expect((parsed?["error"] as? String)?.isEmpty == false, "\(api.body)")
        let page = try server.get("/")
        #expect(page.status == 200 || page.status == 503, "\(page.status)")
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.body.contains("does not compile") || page.body.contains("could not be read"), "\(page.body.prefix(800))")
    }

    private func descriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    private func peakResidentMebibytes(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return -1 }
        return kibibytes / 1024
    }
}
