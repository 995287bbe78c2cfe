import Foundation
import LanesTestSupport
import Testing

/// Poll SCM runs off the daemon's loop: a remote that accepts connections and never answers
/// delays neither the `* * * * *` lane nor SIGTERM. (Before, the fetch ran inside the loop, with no
/// time limit, and froze both.) The loop runs on an injected clock that reaches the minute 2 s in.
@Suite(.serialized) struct DaemonPollTests {
    @Test func aHungPollRemoteDelaysNeitherTheMinuteLaneNorSIGTERM() throws {
        let remote = try StallingHTTPServer(stall: true)
        let project = try LanesProcess.project("daemon")
        try """
        import Lanes

        let lanes = Lanefile {
            Lane("watch", "Polls a remote that never answers") { print("watch") }
                .pollSCM("* * * * *")
            Lane("tick", "Every minute") { print("tick") }
                .schedule("* * * * *")
        }

        """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        for arguments in [["init", "-q", "-b", "main"], ["add", "Lanefile.swift"],
                          ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first"],
                          ["remote", "add", "origin", "\(remote.url)/repo.git"]] {
            let git = Process()
            git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
            git.arguments = arguments
            git.currentDirectoryURL = project
            try git.run()
            git.waitUntilExit()
            #expect(git.terminationStatus == 0, "git \(arguments)")
        }
        let state = project.appendingPathComponent("state").path
        let lanes = LanesProcess()
        #expect(try lanes.run(["list"], in: project).status == 0)  // compile before the clock matters
        // The daemon's loop on a clock 2 s before a minute (DaemonClockHelper), with the poll on.
        let helper = LanesProcess.repositoryRoot.appendingPathComponent(".build/debug/DaemonClockHelper").path
        let daemon = try lanes.start([state, project.path, LanesProcess.executable, "2", "poll"], in: project, executable: helper)

        var tick: [String: Any]?
        let deadline = Date().addingTimeInterval(60)
        while tick == nil, Date() < deadline {
            tick = try DaemonTests.history(lanes, project, state: state).first { $0["lane"] as? String == "tick" }
            if tick == nil { Thread.sleep(forTimeInterval: 0.2) }  // polling the history for the run
        }
        let polled = remote.waitForRequest(seconds: 5)
        let signalled = Date()
        kill(daemon.process.processIdentifier, SIGTERM)
        let stopped = daemon.finish()
        let stopTime = Date().timeIntervalSince(signalled)
        #expect(polled, "the poll reached the hung remote")
        let run = try #require(tick, "no tick run: \(stopped.output)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func date(_ value: Any?) -> Date? { (value as? String).flatMap { formatter.date(from: $0) ?? plain.date(from: $0) } }
        let scheduled = try #require(date(run["scheduled"]))
        let started = try #require(date(run["started"]))
        #expect(started.timeIntervalSince(scheduled) < 3, "started \(started) for \(scheduled) while the poll hung")
        #expect(stopTime < 2, "stopped \(stopTime) s after SIGTERM")
        #expect(stopped.status == 0, "\(stopped.output)")
    }
}
