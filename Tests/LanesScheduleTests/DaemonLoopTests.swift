import Foundation
import LanesCron
import LanesPlatform
import LanesTestSupport
import Synchronization
import Testing
@testable import LanesSchedule

/// `lanes daemon`'s loop as an async program over a test host (issue 35): due runs on the minute of
/// the virtual clock, a Lanefile change, Poll SCM checks with their deadline, and the graceful
/// shutdown on the first signal, all in this process, every wait an event or the clock the test moves.
@Suite(.timeLimit(.minutes(3))) struct DaemonLoopTests {
    /// 2 s before 2027-01-15T08:00:00Z.
    static let start = 1_800_000_000.0 - 2

    struct Fixture {
        let root: String
        let host: TestHost
        let clock: VirtualClock
        let store: HistoryStore
        let launcher: RecordingLauncher

        init(child: @escaping @Sendable () -> RecordedChild = { RecordedChild.runsUntil() }) throws {
            root = try temporaryDirectory("daemon-loop", preferMemory: false)
            clock = VirtualClock(wallClock: DaemonLoopTests.start)
            host = TestHost(clock: clock)
            store = try HistoryStore(directory: root + "/state")
            launcher = RecordingLauncher(child: child)
        }

        /// Starts the daemon's loop over the test host in a task of its own. The daemon has a
        /// history connection of its own, as the web page's reader and the daemon do; the test
        /// reads through `store`.
        func start(_ lanes: [ScheduledLane], poller: (any ChangePoller)? = nil, lanefile: String? = nil,
                   pollDeadline: Double = 60,
                   load: (@Sendable () async throws -> (lanes: [ScheduledLane], launcher: any RunLauncher))? = nil) -> Task<Void, any Error> {
            let launcher = self.launcher, host = self.host, root = self.root
            return Task {
                let daemon = try await Daemon(
                    store: try HistoryStore(directory: root + "/state"), logDirectory: root + "/state/logs", host: host,
                    defaultZone: FixedOffsetTimeZone.utc, poller: poller, lanefile: lanefile,
                    load: load ?? { (lanes, launcher) },
                    report: { host.errors.write(Array(($0 + "\n").utf8)) })
                daemon.graceSeconds = 30
                daemon.pollDeadline = pollDeadline
                try await daemon.run()
            }
        }
    }

    /// Starts runs as recorded children of the test host, remembering each.
    final class RecordingLauncher: RunLauncher, Sendable {
        let child: @Sendable () -> RecordedChild
        private let started = Mutex<[PlannedRun]>([])
        init(child: @escaping @Sendable () -> RecordedChild) { self.child = child }

        func start(_ run: PlannedRun, logPath: String, host: any LanesPlatform.Host) throws -> HostChild {
            started.withLock { $0.append(run) }
            let child = self.child()
            return try (host as! TestHost).launch(ChildProcess(["recorded-lanes", run.lane]), answer: child)
        }

        var runs: [PlannedRun] { started.withLock { $0 } }
    }

    static func everyMinute(_ name: String) throws -> ScheduledLane {
        ScheduledLane(name: name, timers: [try CronSchedule(parsing: "* * * * *", seed: name)])
    }

    @Test func aDueRunStartsOnTheMinuteOfTheVirtualClockAndSIGTERMCancelsIt() async throws {
        let fixture = try Fixture()
        let loop = fixture.start([try Self.everyMinute("tick")])
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        await fixture.clock.waitForSleepers()
        #expect(fixture.launcher.runs.isEmpty, "nothing is due 2 s before the minute")
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("started run 1: tick")
        let run = try #require(try fixture.store.runs(lane: "tick").first)
        #expect(run.scheduled?.secondsSince1970 == 1_800_000_000, "the virtual clock's minute")
        #expect(run.trigger == .timer && run.status == .running)

        #expect(await fixture.host.waitUntilListening(for: SIGTERM))
        fixture.host.send(SIGTERM)
        try await loop.value
        let ended = try #require(try fixture.store.run(id: run.id))
        #expect(ended.status == .cancelled, "\(ended)")
        #expect(ended.note == "stopped by the daemon's shutdown")
        #expect(fixture.host.errors.text.contains("received signal \(SIGTERM): stopping; 1 run(s) get 30 s to finish"))
    }

    @Test func aRunThatIgnoresSIGTERMIsKilledWhenTheGracePeriodEnds() async throws {
        let fixture = try Fixture { RecordedChild.runsUntil([]) }  // only SIGKILL ends it
        let loop = fixture.start([try Self.everyMinute("stubborn")])
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("started run 1")
        #expect(await fixture.host.waitUntilListening(for: SIGHUP))
        fixture.host.send(SIGHUP)
        await fixture.host.errors.waitFor("received signal \(SIGHUP)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(29))
        #expect(try fixture.store.run(id: 1)?.status == .running, "29 s into a 30 s grace period it still runs")
        fixture.clock.advance(by: .seconds(1))
        try await loop.value
        let ended = try #require(try fixture.store.run(id: 1))
        #expect(ended.status == .cancelled && ended.note?.contains("killed after the 30 s grace period") == true, "\(ended)")
    }

    @Test func aRunThatEndsByItselfIsRecordedWithItsStatus() async throws {
        let fixture = try Fixture { RecordedChild(output: "", status: .exited(3)) }
        let loop = fixture.start([try Self.everyMinute("flaky")])
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("run 1 ended: failed (exit 3)")
        #expect(try fixture.store.run(id: 1)?.status == .failed)
        #expect(try fixture.store.run(id: 1)?.exitStatus == 3)
        // The next minute starts the next run: the loop sleeps until then.
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(60))
        await fixture.host.errors.waitFor("started run 2: flaky")
        fixture.host.send(SIGINT)
        try await loop.value
    }

    @Test func aChangedLanefileIsLoadedAndABrokenOneKeepsThePreviousLanes() async throws {
        let fixture = try Fixture()
        let lanefile = fixture.root + "/Lanefile.swift"
        try "// one\n".write(toFile: lanefile, atomically: true, encoding: .utf8)
        let versions = Mutex(0)
        let launcher = fixture.launcher
        let tick = try Self.everyMinute("tick"), tock = try Self.everyMinute("tock")
        let loop = fixture.start([], lanefile: lanefile) {
            let version = versions.withLock { $0 += 1; return $0 }
            switch version {
            case 1: return ([tick], launcher)
            case 2: throw CronSyntaxError(message: "Lanefile.swift:2: expected ')'", lineNumber: 2, column: 1)
            default: return ([tick, tock], launcher)
            }
        }
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        try "// two, broken\n".write(toFile: lanefile, atomically: true, encoding: .utf8)
        await fixture.clock.waitForSleepers(2)  // the loop and the Lanefile's watch
        fixture.clock.advance(by: .seconds(2))  // the Lanefile is looked at every 2 s
        await fixture.host.errors.waitFor("Lanefile changed but cannot be used; keeping the previous version")
        try "// three, longer and good\n".write(toFile: lanefile, atomically: true, encoding: .utf8)
        await fixture.clock.waitForSleepers(2)
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("Lanefile changed: now scheduling 2 lane(s)")
        fixture.host.send(SIGTERM)
        try await loop.value
    }

    /// A poller that answers when the test says, or never (then only its stop flag ends it).
    final class GatedPoller: ChangePoller, Sendable {
        let answer: SourceState?
        private let polls = Mutex(0)
        init(answer: SourceState?) { self.answer = answer }

        func poll(lane: String, since lastBuilt: String?, shouldStop: @escaping @Sendable () -> Bool) throws -> SourceState {
            polls.withLock { $0 += 1 }
            if let answer { return answer }
            while !shouldStop() { usleep(1_000) }  // a fetch that hangs until told to stop
            throw PollProblem("stopped")
        }

        var count: Int { polls.withLock { $0 } }
    }

    @Test func aPollThatFindsANewCommitStartsARun() async throws {
        let fixture = try Fixture()
        let lane = ScheduledLane(name: "staging", timers: [], polls: [try CronSchedule(parsing: "* * * * *", seed: "staging")])
        let poller = GatedPoller(answer: SourceState(commit: String(repeating: "c", count: 40), moved: true))
        let loop = fixture.start([lane], poller: poller)
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("started run")
        let run = try #require(try fixture.store.runs(lane: "staging").first { $0.trigger == .scm })
        #expect(run.commit == String(repeating: "c", count: 40))
        fixture.host.send(SIGTERM)
        try await loop.value
    }

    @Test func aPollPastItsDeadlineIsRecordedFailedAndToldToStop() async throws {
        let fixture = try Fixture()
        let lane = ScheduledLane(name: "staging", timers: [], polls: [try CronSchedule(parsing: "0 9 * * *", seed: "staging")])
        let poller = GatedPoller(answer: nil)
        let loop = fixture.start([lane], poller: poller, pollDeadline: 60)
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(3602))  // 09:00: the check starts and hangs
        #expect(await eventually { poller.count == 1 })
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(59))
        #expect(!fixture.host.errors.text.contains("took longer"), "59 s into a 60 s deadline")
        fixture.clock.advance(by: .seconds(1))
        await fixture.host.errors.waitFor("poll of staging took longer than 60 s: recorded failed")
        fixture.host.send(SIGTERM)
        try await loop.value
        #expect(fixture.launcher.runs.isEmpty)
    }
}

extension DaemonLoopTests {
    /// Poll SCM runs off the loop: a remote that never answers delays neither the `* * * * *` lane
    /// nor the shutdown. (Before, the fetch ran inside the loop, with no time limit, and froze both.)
    @Test func aHungPollDelaysNeitherTheMinuteLaneNorTheShutdown() async throws {
        let fixture = try Fixture()
        let watch = ScheduledLane(name: "watch", timers: [], polls: [try CronSchedule(parsing: "* * * * *", seed: "watch")])
        let poller = GatedPoller(answer: nil)
        let loop = fixture.start([watch, try Self.everyMinute("tick")], poller: poller)
        await fixture.host.errors.waitFor("scheduling 2 lane(s)")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("started run")
        #expect(await eventually { poller.count == 1 }, "the poll hangs meanwhile")
        #expect(fixture.launcher.runs.map(\.lane) == ["tick"])
        fixture.host.send(SIGTERM)
        try await loop.value  // returns though the fetch still hangs; it is told to stop
    }

    /// Issue 21: the daemon keeps going when the history cannot be written for a while (a locked,
    /// full or read-only database): it says so, retries with backoff, and runs the due lane once the
    /// write works. A second SQLite connection (python's) holds the lock until the test releases it.
    @Test func aHistoryThatCannotBeWrittenForAWhileIsRetriedNotFatal() async throws {
        let fixture = try Fixture()
        let loop = fixture.start([try Self.everyMinute("tick")])
        await fixture.host.errors.waitFor("scheduling 1 lane(s)")
        let release = fixture.root + "/release"
        let holder = try SystemHost().spawn(ChildProcess(["python3", "-c", """
            import os, sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute('BEGIN EXCLUSIVE')
            print('locked', flush=True)
            deadline = time.time() + 60
            while not os.path.exists(sys.argv[2]) and time.time() < deadline:
                time.sleep(0.02)
            c.execute('ROLLBACK')
            """, fixture.root + "/state/history.sqlite", release]), input: nil)
        // Chunks are what each read returned, not lines: "locked" and "\n" may come apart.
        var lines = holder.output.makeAsyncIterator()
        var said: [UInt8] = []
        while !said.contains(UInt8(ascii: "\n")), let chunk = await lines.next() { said += chunk.bytes }
        try #require(said == Array("locked\n".utf8), "\(said.isEmpty ? "no output" : String(decoding: said, as: UTF8.self))")
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(2))
        await fixture.host.errors.waitFor("ERROR: cannot write the run history")
        #expect(fixture.launcher.runs.isEmpty, "a run is recorded before it starts: none starts meanwhile")
        FileManager.default.createFile(atPath: release, contents: nil)
        while await lines.next() != nil {}
        #expect(await holder.status() == .exited(0))
        await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(1))  // the first retry comes after a second
        await fixture.host.errors.waitFor("the run history can be written again")
        await fixture.host.errors.waitFor("started run 1: tick")
        fixture.host.send(SIGTERM)
        try await loop.value
    }
}
