import Foundation
import Lanes
import LanesPlatform
import LanesTestSupport
import LanesWire
import Synchronization
import Testing
@testable import LanesRuntime

/// The runner as an async program over a host (issue 35), run in this process through the test
/// host: exit statuses, signals, cleanups and process endings observed without a runner process,
/// on the host's virtual clock.
@Suite(.timeLimit(.minutes(3))) struct RunnerHostTests {
    static func host(_ variables: [String: String] = [:], clock: VirtualClock = VirtualClock()) -> TestHost {
        TestHost(environment: ["PATH": "/usr/bin:/bin", "NO_COLOR": "1", "HOME": NSTemporaryDirectory()].merging(variables) { $1 },
                 currentDirectory: NSTemporaryDirectory(), clock: clock)
    }

    static let lanefile = Lanefile {
        Lane("ok", "Succeeds") { try await sh("sh", "-c", "echo fine") }
        Lane("fails", "Fails in its step") { try await sh("sh", "-c", "echo failing; exit 3") }
        Lane("needsSecret", "Needs a secret", secrets: ["RUNNER_HOST_TOKEN"]) { try await sh("true") }
        Lane("wait", "Runs until interrupted") { try await sh("sh", "-c", "echo started; exec sleep 120") }
        Lane("stubborn", "Its grandchild ignores SIGTERM") {
            // Its grandchild outlives any test unless killed: only SIGKILL at the grace's end lets the run end.
            try await sh("sh", "-c", "(trap '' TERM; echo started; exec sleep 600) & wait")
        }
        Lane("slow", "Runs past its step's timeout") {
            try await sh("sh", "-c", "echo started; exec sleep 120", timeout: 30)
        }
        Finally { lane in try echo("finally \(lane) ran") }
    }

    @Test func exitStatusesComeFromTheOneTable() async {
        let ok = await LaneHarness.run(Self.lanefile, ["ok"], host: Self.host())
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(ok.outputLines.contains("fine"))
        #expect(ok.laneFinished?.succeeded == true)

        let failed = await LaneHarness.run(Self.lanefile, ["fails"], host: Self.host())
        #expect(failed.status == ExitStatus.laneFailed.rawValue)
        #expect(failed.finishedSteps.first?.succeeded == false)
        #expect(failed.laneFinished?.succeeded == false)

        let unknown = await LaneHarness.run(Self.lanefile, ["nope"], host: Self.host())
        #expect(unknown.status == ExitStatus.usage.rawValue)
        #expect(unknown.errors.contains("no lane named 'nope'"))
        #expect(unknown.events.isEmpty, "a mistyped lane records no run")

        let missing = await LaneHarness.run(Self.lanefile, ["needsSecret"], host: Self.host())
        #expect(missing.status == ExitStatus.configuration.rawValue)
        #expect(missing.errors.contains("RUNNER_HOST_TOKEN"))

        let duplicate = Lanefile {
            Lane("build", "First") {}
            Lane("build", "Second") {}
        }
        #expect(await LaneHarness.run(duplicate, ["build"], host: Self.host()).status == ExitStatus.configuration.rawValue)
    }

    @Test func aSignalCancelsTheStepRunsTheHooksAndTheStatusSaysSo() async throws {
        let host = Self.host()
        async let run = LaneHarness.run(Self.lanefile, ["wait"], host: host)
        await host.output.waitFor("started")
        #expect(host.send(SIGTERM), "the runner listens for SIGTERM while the lane runs")
        let result = await run
        #expect(result.status == 130, "\(result.errors)")
        #expect(result.output.contains("finally wait ran"))
        #expect(result.errors.contains("interrupted by a signal"), "\(result.errors)")
        let step = try #require(result.finishedSteps.first)
        #expect(!step.succeeded && step.error?.contains("cancelled") == true, "\(step)")
    }

    @Test func aSecondSignalRunsTheCleanupsAndEndsTheRunWithoutTheLane() async throws {
        let cleaned = CleanupProbe(), released = CleanupProbe()
        let lanefile = Lanefile {
            Lane("ignores", "Ignores its cancellation") {
                LaneRun.current?.context.cleanups.push("probe") { cleaned.mark() }
                try echo("started")
                // A lane body that never looks at cancellation: only the second signal ends the run
                // (the test lets it go once the run has ended without it).
                while !released.marked { try? await Task.sleep(for: .milliseconds(20)) }
            }
        }
        let host = Self.host()
        async let run = LaneHarness.run(lanefile, ["ignores"], host: host)
        await host.output.waitFor("started")
        host.send(SIGINT)
        host.send(SIGINT)
        let result = await run
        #expect(result.status == 130)
        #expect(cleaned.marked, "the cleanups ran before the run ended")
        #expect(result.errors.contains("interrupted twice"), "\(result.errors)")
        released.mark()
    }

    @Test func aGrandchildIgnoringSIGTERMIsKilledWhenTheGracePeriodEndsOnTheVirtualClock() async throws {
        let clock = VirtualClock()
        let host = Self.host(clock: clock)
        let run = Task { await LaneHarness.run(Self.lanefile, ["stubborn"], host: host) }
        await host.output.waitFor("started")
        let interrupted = clock.now
        host.send(SIGINT)
        // The step's shell ends at SIGTERM; its child does not. Nothing moves until the clock does: it is
        // moved to each deadline the runner sleeps until (the step's 0.9 s grace, then the group's 3 s one,
        // then SIGKILL), in whatever order and however late under load those sleeps begin.
        let result = await clock.advancingToEachDeadline { await run.value }
        #expect(result.status == 130, "\(result.errors)")
        #expect(result.output.contains("finally stubborn ran"))
        #expect(clock.now - interrupted >= .seconds(3), "the group's grace passed on the clock: \(clock.now - interrupted)")
    }

    @Test func aStepsTimeoutIsTheHostsClock() async throws {
        let clock = VirtualClock()
        let host = Self.host(clock: clock)
        async let run = LaneHarness.run(Self.lanefile, ["slow"], host: host)
        await host.output.waitFor("started")
        await clock.waitForSleepers()
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount >= 1, "29 s into a 30 s timeout the step still runs")
        clock.advance(by: .seconds(1))
        let result = await run
        #expect(result.status == ExitStatus.laneFailed.rawValue, "\(result.errors)")
        let step = try #require(result.finishedSteps.first)
        #expect(step.error?.contains("timed out after 30 s") == true, "\(step)")
    }
}

/// Whether a cleanup ran.
final class CleanupProbe: Sendable {
    private let ran = Mutex(false)
    func mark() { ran.withLock { $0 = true } }
    var marked: Bool { ran.withLock { $0 } }
}
