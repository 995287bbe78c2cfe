import LanesTestSupport
import Foundation
import Testing
import LanesHTTP

/// Tests/Servers/test-servers.sh leaves nothing running: `stop` ends every process it started
/// (a server's forked workers, and a process that ignores SIGTERM), and its watchdog ends them
/// all when the test process dies by SIGKILL. nginx alone (TEST_SERVERS=nginx) keeps this fast;
/// Ceph's daemons are started and stopped the same way. Processes are found from /proc, apart
/// from the script's own PID files.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: FileManager.default.fileExists(atPath: "/usr/sbin/nginx")
                      && FileManager.default.fileExists(atPath: "/proc/self/cmdline"), "needs nginx and /proc"))
struct TestServersLifetimeTests {
    static let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/test-servers.sh").path

    /// Live (not zombie) processes that name BASE in their command line (nginx's master, the
    /// watchdog, the stubborn client below), and every process of the sessions they lead (nginx's
    /// workers). Ceph's daemons are found by their session the same way.
    static func running(_ base: String) -> [pid_t] {
        let named = Array(base.utf8)
        struct Entry { let pid: pid_t; let session: pid_t; let names: Bool }
        let ownSession = getsid(0)
        let entries: [Entry] = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let fields = stat.components(separatedBy: ") ").last?.split(separator: " "), fields.count > 3,
                  fields[0] != "Z", let session = pid_t(fields[3]) else { return nil }
            let command = [UInt8](FileManager.default.contents(atPath: "/proc/\(name)/cmdline") ?? Data())
            return Entry(pid: pid, session: session, names: command.firstRange(of: named) != nil)
        }
        let sessions = Set(entries.filter { $0.names && $0.session != ownSession }.map(\.session))
        return entries.filter { $0.names || sessions.contains($0.session) }.map(\.pid).filter { $0 != getpid() }
    }

    /// A `sleep` standing in for the test process that owns the servers.
    static func owner() throws -> pid_t { try Spawn.start(["/bin/sleep", "600"]) }

    static func start(_ base: String, owner: pid_t) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TEST_SERVERS"] = "nginx"
        let status = try Spawn.run([script, "start", base, String(owner)], outputPath: base + ".log", environment: environment)
        try #require(status == 0, "\((try? String(contentsOfFile: base + ".log", encoding: .utf8)) ?? "")")
    }

    static func waitFor(seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
        await eventually(within: .seconds(seconds), condition)
    }

    @Test func stopEndsEveryProcessItStartedEvenOneIgnoringSIGTERM() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-servers-stop-\(UUID().uuidString.prefix(8))").path
        let owner = try Self.owner()
        defer { kill(owner, SIGKILL); waitpid(owner, nil, 0); try? FileManager.default.removeItem(atPath: base + ".log") }
        try Self.start(base, owner: owner)
        // nginx's master and workers, and the watchdog.
        let started = Self.running(base)
        #expect(started.count >= 3, "\(started)")
        // A client stuck like a hung radosgw-admin: marked as the script marks what it starts, in
        // no recorded group, deaf to SIGTERM (BASE is its $0, so the scan above sees it too).
        var environment = ProcessInfo.processInfo.environment
        environment["LANES_TEST_SERVERS"] = base
        let stubborn = try Spawn.start(["/bin/sh", "-c", "trap '' TERM; /bin/sleep 600; :", base], environment: environment)
        defer { kill(stubborn, SIGKILL); waitpid(stubborn, nil, 0) }
        #expect(await Self.waitFor(seconds: 5) { Self.running(base).contains(stubborn) })
        let stopped = try Spawn.run([Self.script, "stop", base], outputPath: base + ".log")
        #expect(stopped == 0)
        #expect(Self.running(base).isEmpty, "left running after stop: \(Self.running(base))")
        try? FileManager.default.removeItem(atPath: base)
    }

    /// The test process and the script share a process group, as under `swift test`; Ctrl-C or
    /// a CI job's timeout kills the whole group at once, the watchdog's shell included unless it
    /// left the group. Here the group is killed with SIGKILL right after the start.
    @Test func theWatchdogEndsThemWhenTheTestProcessGroupIsKilled() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-servers-watch-\(UUID().uuidString.prefix(8))").path
        var owner: pid_t = 0
        defer {
            if owner > 0 { kill(-owner, SIGKILL); waitpid(owner, nil, 0) }
            try? FileManager.default.removeItem(atPath: base + ".log")
            try? FileManager.default.removeItem(atPath: base + ".ready")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TEST_SERVERS"] = "nginx"
        // The owner leads a group of its own: it starts the servers, then stays as the "test process".
        owner = try Spawn.start(["/usr/bin/setsid", "/bin/sh", "-c",
                                     "mkdir -p \"$1\" && \"$0\" start \"$1\" $$ > \"$1.log\" 2>&1 && : > \"$1.ready\"; exec /bin/sleep 600",
                                     Self.script, base], environment: environment)
        #expect(await Self.waitFor(seconds: 60) { FileManager.default.fileExists(atPath: base + ".ready") },
                "\((try? String(contentsOfFile: base + ".log", encoding: .utf8)) ?? "")")
        try #require(Self.running(base).count >= 3)
        #expect(kill(-owner, SIGKILL) == 0)
        waitpid(owner, nil, 0)
        owner = 0
        #expect(await Self.waitFor(seconds: 20) { Self.running(base).isEmpty }, "left running after the owner's group died: \(Self.running(base))")
        #expect(await Self.waitFor(seconds: 5) { !FileManager.default.fileExists(atPath: base) }, "the watchdog left \(base)")
    }
}
