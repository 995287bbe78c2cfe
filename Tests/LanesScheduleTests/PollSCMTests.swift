import Foundation
import LanesCron
import LanesTestSupport
import Testing
@testable import LanesSchedule

/// Poll SCM through LanesGit against a local bare remote: the lane runs once after the remote
/// gains a commit, not before, and not twice.
@Suite(.timeLimit(.minutes(3))) struct PollSCMTests {
    @discardableResult
    static func git(_ arguments: [String], in directory: String) async throws -> String {
        let result = try await Program.run(["git", "-c", "user.name=lanes", "-c", "user.email=lanes@example.com", "-c", "init.defaultBranch=main"] + arguments,
                                           in: directory)
        try #require(result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func runsOnceAfterTheRemoteGainsACommit() async throws {
        let root = try temporaryDirectory("poll", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await Self.git(["init", "-q", "seed"], in: root)
        try await Self.git(["commit", "-q", "--allow-empty", "-m", "first"], in: root + "/seed")
        try await Self.git(["clone", "-q", "--bare", "seed", "server.git"], in: root)
        try await Self.git(["clone", "-q", "file://\(root)/server.git", "project"], in: root)
        try await Self.git(["clone", "-q", "file://\(root)/server.git", "other"], in: root)

        let clock = ManualClock(instant("2026-03-01T10:00:30Z"))
        let store = try HistoryStore(directory: root + "/state")
        let lane = ScheduledLane(name: "staging", timers: [], polls: [try CronSchedule(parsing: "* * * * *", seed: "staging")])
        let poller = GitChangePoller(repositoryPath: root + "/project", environment: [:])
        let scheduler = try Scheduler(lanes: [lane], store: store, clock: clock, defaultZone: FixedOffsetTimeZone.utc, poller: poller)
        _ = try scheduler.takeDueRuns()

        func pollMinute() throws -> [PlannedRun] {
            _ = scheduler.takePollTraces()  // the daemon logs each wake's traces
            clock.set(scheduler.nextWake()!.adding(seconds: 0.5))
            var runs = try scheduler.takeDueRuns()
            // The daemon runs these on workers; here, inline.
            for request in scheduler.takePollRequests() {
                let outcome = Result { try poller.poll(lane: request.lane, since: request.lastBuilt, shouldStop: { false }) }
                runs += try scheduler.finishPoll(request, outcome: outcome)
            }
            for run in runs { try store.finish(id: run.id, status: .succeeded, exitStatus: 0, ended: clock.now()) }
            return runs
        }
        #expect(try pollMinute().isEmpty)  // nothing new: no run
        #expect(try pollMinute().isEmpty)

        try await Self.git(["commit", "-q", "--allow-empty", "-m", "second"], in: root + "/other")
        try await Self.git(["push", "-q", "origin", "HEAD:main"], in: root + "/other")
        let pushed = try await Self.git(["rev-parse", "HEAD"], in: root + "/other")

        let runs = try pollMinute()
        #expect(runs.count == 1)
        #expect(runs.first?.trigger == .scm)
        #expect(runs.first?.commit == pushed)
        #expect(try pollMinute().isEmpty)  // not twice
        #expect(try pollMinute().isEmpty)
        let all = try store.runs(lane: "staging")
        // Every check left a trace: the four that found nothing new are `poll` rows with the commit seen.
        let polls = all.filter { $0.trigger == .poll }
        #expect(polls.count == 4 && polls.allSatisfy { $0.status == .skipped && $0.commit != nil })
        #expect(scheduler.pollTraces.count == 1 && scheduler.pollTraces[0].contains("no new commit"))
        let history = all.filter { $0.trigger != .poll }
        #expect(history.count == 1)
        #expect(history.first?.commit == pushed && history.first?.status == .succeeded)
        #expect(try store.lastCommit(lane: "staging") == pushed)
    }
}
