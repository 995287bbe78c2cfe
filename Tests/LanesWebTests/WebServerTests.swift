import Foundation
import LanesCron
import LanesDoctor
import LanesSchedule
import LanesTestSupport
import LanesWeb
import Testing

/// `lanes serve` against a real history: lanes run for real (their logs written by the lanes
/// themselves), recorded in the SQLite store the daemon uses, read back over HTTP.
@Suite(.serialized) struct WebServerTests {
    /// One project with a few finished runs, shared by the tests of this suite.
    final class Fixture: @unchecked Sendable {
        let project: WebProject
        let succeeded: Int64
        let failed: Int64
        let manual: Int64

        init() throws {
            project = try WebProject()
            let compile = try project.lanes(["list"])
            try #require(compile.status == 0, "\(compile.output)")
            succeeded = try project.run("build", scheduled: CronInstant(iso8601: "2026-11-20T02:17:00Z"), commit: "0123456789abcdef0123")
            failed = try project.run("broken", scheduled: CronInstant(iso8601: "2026-11-20T03:30:00Z"))
            try project.run("broken", scheduled: CronInstant(iso8601: "2026-11-21T03:30:00Z"))
            manual = try project.run("build", trigger: .manual)
        }
    }

    static let shared = Result { try Fixture() }

    static func fixture() throws -> Fixture { try shared.get() }

    @Test func historyListsRunsNewestFirstWithTrendsAndFilters() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let page = try server.get("/history")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        let order = [fixture.manual, fixture.failed, fixture.succeeded].map { page.body.range(of: "href=\"/runs/\($0)\"")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(page.body.contains("<svg class=\"trend\""))
        #expect(page.body.contains("0123456789"))  // the commit, shortened
        #expect(!page.body.contains("<script"))    // no JavaScript on the history page

        let broken = try server.get("/history?lane=broken")
        #expect(broken.body.contains("href=\"/runs/\(fixture.failed)\""))
        #expect(!broken.body.contains("href=\"/runs/\(fixture.succeeded)\""))
        let failedOnly = try server.get("/history?status=failed")
        #expect(failedOnly.body.contains("href=\"/runs/\(fixture.failed)\""))
        #expect(!failedOnly.body.contains("href=\"/runs/\(fixture.manual)\""))
        #expect(try server.get("/history?status=bogus").status == 400)
        // An API error is JSON (`<b>` stays inside a JSON string, served as JSON with nosniff).
        let bad = try server.get("/api/runs?status=%3Cb%3E")
        #expect(bad.status == 400 && bad.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(bad.body.hasPrefix("{\"error\":\"unknown status '<b>'"), "\(bad.body)")
    }

    @Test func runPageShowsStepsTheFailingStepAndTheEscapedLog() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let page = try server.get("/runs/\(fixture.failed)")
        #expect(page.status == 200)
        #expect(page.body.contains("<table id=\"steps\">"))
        #expect(page.body.contains("Failing step: <code>2. sh:"))
        #expect(page.body.contains("disk &lt;full&gt;"))
        #expect(page.body.contains("exit"))

        let build = try server.get("/runs/\(fixture.succeeded)")
        #expect(build.body.contains("compiling &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"))
        #expect(!build.body.contains("<script>alert"))
        #expect(try server.get("/runs/999999").status == 404)
        #expect(try server.get("/runs/abc").status == 404)

        let detail = try server.get("/api/runs/\(fixture.failed)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(detail.body.utf8)) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        let steps = try #require(run["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        #expect(steps.last?["result"] as? String == "failed")
        #expect((steps.last?["banner"] as? String)?.contains("exit 3") == true)
        #expect((run["error"] as? String)?.isEmpty == false)
    }

    /// Issue 20: steps come from each run's events, not from its log's text, so a banner with `|`,
    /// a tab, quotes, markup or 10,000 characters shows on the page, in `lanes history --json` and in
    /// JUnit; a run started by hand joins the history (trigger `manual`) and every run folder holds
    /// `events.jsonl`.
    @Test func awkwardBannersShowEverywhereForManualRuns() throws {
        let fixture = try Self.fixture()
        let junit = fixture.project.directory.appendingPathComponent("reports/junit.xml").path
        let lane = try fixture.project.lanes(["awkward", "--junit", junit], extraEnvironment: ["LANES_STATE_DIR": fixture.project.state])
        try #require(lane.status == 0, "\(lane.output)")

        let history = try fixture.project.lanes(["history", "awkward", "--json", "--state-dir", fixture.project.state])
        try #require(history.status == 0, "\(history.output)")
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [[String: Any]])
        let run = try #require(runs.first)
        #expect(run["trigger"] as? String == "manual")
        #expect(run["status"] as? String == "succeeded")
        let banners = try #require(run["steps"] as? [[String: Any]]).compactMap { $0["banner"] as? String }
        try #require(banners.count == 3, "\(banners)")
        #expect(banners[0].contains("echo a | tr a b"))
        #expect(banners[1].contains("tab\there \\\"quoted\\\" <b>|</b>"))
        #expect(banners[2].contains(String(repeating: "long|", count: 2_000)))

        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let page = try server.get("/runs/\(try #require(run["id"] as? Int))")
        #expect(page.status == 200)
        #expect(page.body.contains("echo a | tr a b"))
        #expect(page.body.contains("&lt;b&gt;|&lt;/b&gt;"))
        #expect(page.body.contains(String(repeating: "long|", count: 2_000)))
        #expect(page.body.contains("tab\there"))

        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains("echo a | tr a b"))
        #expect(report.contains(String(repeating: "long|", count: 2_000)))

        let folders = try FileManager.default.contentsOfDirectory(atPath: fixture.project.logs)
        #expect(folders.count >= 5)
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fixture.project.logs + "/" + folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
            #expect(FileManager.default.fileExists(atPath: "\(fixture.project.logs)/\(folder)/events.jsonl"), "\(folder)")
        }
    }

    @Test func apiRunsIsWhatLanesHistoryPrints() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let cli = try fixture.project.lanes(["history", "--json", "--state-dir", fixture.project.state])
        #expect(cli.status == 0)
        let api = try server.get("/api/runs")
        #expect(api.headers["content-type"] == "application/json; charset=utf-8")
        #expect(api.body == cli.standardOutput)
        let lane = try fixture.project.lanes(["history", "broken", "--json", "--state-dir", fixture.project.state])
        #expect(try server.get("/api/runs?lane=broken").body == lane.standardOutput)
    }

    @Test func schedulesShowSpecsResolvedNextFiveAndLastStatus() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(page.body.contains("<code>H 2 * * *</code>"))
        #expect(page.body.contains("Europe/Paris"))
        #expect(page.body.contains("status-failed"))   // broken's last run
        let firstRow = try #require(page.body.components(separatedBy: "<ol class=\"next\">").dropFirst().first)
        #expect(firstRow.components(separatedBy: "</ol>")[0].components(separatedBy: "<li>").count - 1 == 5)

        let cli = try fixture.project.lanes(["schedule", "--json"])
        let fromCLI = try #require(try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [[String: Any]])
        let api = try #require(try JSONSerialization.jsonObject(with: Data(try server.get("/api/schedules").body.utf8)) as? [[String: Any]])
        #expect(api.map { $0["lane"] as? String } == fromCLI.map { $0["lane"] as? String })
        #expect(api.map { $0["seed"] as? String } == fromCLI.map { $0["seed"] as? String })
        #expect(api.map { ($0["triggers"] as? [[String: Any]])?.map { $0["resolved"] as? [String] } }
                == fromCLI.map { ($0["triggers"] as? [[String: Any]])?.map { $0["resolved"] as? [String] } })
    }

    @Test func signingPageCountsDownAndFlagsTheExpiredProfile() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        #expect(!(try server.get("/signing").body.contains("id=\"watch\"")))
        // What the daemon's daily check recorded is shown above the live check.
        let root = LanesProcess.repositoryRoot.path
        let lapsed = SigningMaterial(configuration: "Lapsed", certificatePath: root + "/Example/codesigning/ios_distribution.p12",
                                     passwordVariable: "PASS", profilePath: root + "/Tests/LanesSigningTests/Fixtures/profiles/Brewer_Staging_Expired.mobileprovision",
                                     trustPath: nil, appIdentifier: "works.sth.brewer.staging")
        let watch = SigningWatch(stateDirectory: fixture.project.state)
        try watch.checkIfDue([lapsed], checkup: SigningCheckup(), variables: ["PASS": "brewer-3des-pass"], at: Date())
        defer { try? FileManager.default.removeItem(atPath: watch.path) }
        let page = try server.get("/signing")
        #expect(page.status == 200)
        #expect(page.body.contains("The daemon’s daily expiry check ran at"))
        #expect(page.body.contains("Lapsed profile (error)"))
        #expect(page.body.contains("Staging"))
        #expect(page.body.contains("Lapsed"))
        #expect(page.body.contains("day(s) left"))
        #expect(page.body.contains("expired"))
        let api = try #require(try JSONSerialization.jsonObject(with: Data(try server.get("/api/signing").body.utf8)) as? [[String: Any]])
        #expect(api.first { $0["configuration"] as? String == "Staging" }?["severity"] as? String == "ok")
        #expect(api.first { $0["configuration"] as? String == "Lapsed" }?["severity"] as? String == "error")
    }

    @Test func everyResponseCarriesTheSecurityHeadersAndOnlyGETAndHEADExist() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        for target in ["/", "/history", "/runs/\(fixture.succeeded)", "/signing", "/api/runs", "/static/site.css", "/nowhere"] {
            let response = try server.get(target)
            #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(target)")
            #expect(response.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["x-frame-options"] == "DENY")
            #expect(response.headers["referrer-policy"] == "no-referrer")
        }
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            let response = try RawHTTP.request(port: server.port, "/history", method: method)
            #expect(response.status == 405, "\(method)")
            #expect(response.headers["allow"] == "GET, HEAD")
        }
        let head = try RawHTTP.request(port: server.port, "/history", method: "HEAD", headers: ["Cookie": "lanes_token=\(server.token)"])
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }

    @Test(arguments: ["/runs/1/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/runs/%2E%2E/%2e%2E/etc/passwd",
                      "/static/..%2f..%2f..%2fetc%2fpasswd", "/runs/1/log/..", "/%2e/history", "/a%00b", "/a\\..\\b", "/%zz"])
    func requestPathsCannotLeaveTheSite(_ target: String) throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let response = try server.get(target)
        #expect(response.status == 400)
        #expect(!response.body.contains("root:"))
    }

    @Test func logsAreServedOnlyFromInsideTheLogFolder() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let store = try fixture.project.store()
        // A log that is a symlink out of the folder, and one recorded outside it.
        let link = fixture.project.logs + "/linked.log"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/passwd")
        var ids: [Int64] = []
        for path in [link, "/etc/passwd", fixture.project.logs + "/../history.sqlite"] {
            let id = try #require(try store.record([NewRun(lane: "build", trigger: .manual, scheduled: nil, status: .starting)], cursors: [:]).first)
            try store.markRunning(id: id, processID: 1, started: SystemCronClock().now(), logPath: path)
            try store.finish(id: id, status: .succeeded, exitStatus: 0, ended: SystemCronClock().now())
            ids.append(id)
        }
        for id in ids {
            #expect(try server.get("/runs/\(id)/log").status == 404)
            #expect(try server.get("/runs/\(id)/events").status == 404)
            let page = try server.get("/runs/\(id)")
            #expect(page.status == 200)
            #expect(!page.body.contains("root:"))
            #expect(page.body.contains("No log."))
        }
        #expect(try server.get("/runs/\(fixture.succeeded)/log").body.contains("compiling <script>"))
    }

    @Test func aForeignHostHeaderIsRefused() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let rebound = try RawHTTP.request(port: server.port, "/api/runs", host: "attacker.example:\(server.port)")
        #expect(rebound.status == 401)
        #expect(!rebound.body.contains("\"lane\""))
        #expect(try RawHTTP.request(port: server.port, "/api/runs", host: "localhost:\(server.port)",
                                    headers: ["Cookie": "lanes_token=\(server.token)"]).status == 200)
    }

    @Test func theSecretCanaryIsNeverServed() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let log = try server.get("/runs/\(fixture.succeeded)/log").body
        #expect(log.contains("the token is ********"))
        var bodies: [String] = []
        for target in ["/", "/history", "/signing", "/api/runs", "/api/schedules", "/api/signing",
                       "/runs/\(fixture.succeeded)", "/runs/\(fixture.succeeded)/log", "/api/runs/\(fixture.succeeded)",
                       "/runs/\(fixture.manual)/events"] {
            bodies.append(try server.get(target).body)
        }
        for body in bodies { #expect(!body.contains(WebProject.canary)) }
        // The certificate password is in the server's environment too; it is never on a page.
        for body in bodies { #expect(!body.contains("brewer-3des-pass")) }
    }

    @Test func theLiveLogStreamsWhileTheLaneRuns() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let live = try fixture.project.start("slow")
        let release = fixture.project.directory.appendingPathComponent("release")
        let finished = Thread {
            Thread.sleep(forTimeInterval: 2)
            FileManager.default.createFile(atPath: release.path, contents: nil)
            _ = try? live.wait()
        }
        finished.start()
        defer { try? FileManager.default.removeItem(at: release) }
        let started = Date()
        let response = try server.get("/runs/\(live.id)/events?offset=0")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(response.body.contains("event: log\ndata: "))
        #expect(response.body.contains("data: tick 1\n"))
        #expect(response.body.contains("data: tick 5\n"))
        #expect(response.body.contains("data: released\n"))
        #expect(response.body.hasSuffix("event: end\ndata: succeeded\n\n"))
        #expect(Date().timeIntervalSince(started) >= 2)  // it followed the lane until it ended
        let page = try server.get("/runs/\(live.id)")
        #expect(page.body.contains("status-succeeded"))
    }

    @Test func bindingOffLoopbackNeedsAToken() throws {
        let fixture = try Self.fixture()
        let server = try WebProject.Server(project: fixture.project)
        defer { server.stop() }
        let refused = try fixture.project.lanes(["serve", "--http", "0.0.0.0:0", "--state-dir", fixture.project.state])
        #expect(refused.status == 78)
        #expect(refused.standardError.contains("LANES_WEB_TOKEN"))

        let token = "t0ken-\(UUID().uuidString)"
        let address = try #require(ListenAddress(parsing: "0.0.0.0:8080"))
        let policy = try AccessPolicy(address: address, token: token)
        #expect(!policy.allows(HTTPRequest(method: "GET", path: "/", headers: ["host": "example:8080"])))
        #expect(policy.allows(HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer \(token)"])))
        #expect(policy.allows(HTTPRequest(method: "GET", path: "/", headers: ["cookie": "a=b; lanes_token=\(token)"])))
        #expect(!policy.allows(HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer \(token)x"])))
        #expect(!policy.allows(HTTPRequest(method: "GET", path: "/", headers: ["cookie": "lanes_token=\(token.dropLast())"])))
        #expect(throws: HTTPServerError.self) { try AccessPolicy(address: address, token: "short") }
    }
}
