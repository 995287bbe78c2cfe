import Foundation
@testable import LanesPlatform
import LanesTestSupport
import Synchronization
import Testing

/// The real host's one monitor thread (issue 35): children's output and ends, standard input,
/// a grandchild holding the pipes, signals as a stream. No test waits on time: each awaits the
/// host's own events.
@Suite(.timeLimit(.minutes(3))) struct SystemHostTests {
    static func collect(_ child: HostChild) async -> (output: String, errors: String) {
        var output: [UInt8] = [], errors: [UInt8] = []
        for await chunk in child.output {
            if chunk.stream == .standardOutput { output += chunk.bytes } else { errors += chunk.bytes }
        }
        return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test func aChildsOutputAndStatusArriveAsEvents() async throws {
        let host = SystemHost()
        let child = try host.spawn(ChildProcess(["sh", "-c", "echo out; echo err >&2; exit 3"]), input: nil)
        let (output, errors) = await Self.collect(child)
        #expect(output == "out\n" && errors == "err\n")
        #expect(await child.status() == .exited(3))
    }

    @Test func inputIsWrittenThenClosedAndLargeOutputIsAllRead() async throws {
        let text = String(repeating: "0123456789abcdef\n", count: 200_000)  // 3.4 MB: more than the buffer holds
        let child = try SystemHost().spawn(ChildProcess(["cat"]), input: Array(text.utf8))
        let (output, _) = await Self.collect(child)
        #expect(output.utf8.count == text.utf8.count && output == text)
        #expect(await child.status() == .exited(0))
    }

    /// A consumer slower than the quiet window loses nothing: a child fills the buffer, leaves the
    /// rest in the pipe and ends; what the pipe holds waits for room instead of being cut off when
    /// the window after the child's end passes (lost under load before).
    @Test func aReaderSlowerThanTheQuietWindowGetsAllOfAnEndedChildsOutput() async throws {
        let size = ChildOutput.defaultCapacity + 16 * 1024  // the buffer's worth, and some left in the pipe
        let child = try SystemHost().spawn(ChildProcess(["sh", "-c", "head -c \(size) /dev/zero | tr '\\0' x"]), input: nil)
        #expect(await child.status() == .exited(0))
        // The slow consumer is what this test is about: it starts reading well after the window.
        try await Task.sleep(for: HostMonitor.quietWindow * 3)
        let (output, _) = await Self.collect(child)
        #expect(output.utf8.count == size)
    }

    @Test func aGrandchildHoldingThePipesDoesNotHoldTheOutput() async throws {
        let child = try SystemHost().spawn(ChildProcess(["sh", "-c", "sleep 600 & echo $!"]), input: nil)
        let (output, _) = await Self.collect(child)
        #expect(await child.status() == .exited(0))
        let grandchild = try #require(Int32(output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(grandchild, 0) == 0, "the grandchild still runs, yet the output ended")
        kill(grandchild, SIGKILL)
    }

    @Test func manyChildrenAtOnceShareTheOneMonitor() async throws {
        try await withThrowingTaskGroup(of: WaitStatus.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let child = try SystemHost().spawn(ChildProcess(["sh", "-c", "echo \(index); exit \(index % 7)"]), input: nil)
                    let (output, _) = await Self.collect(child)
                    #expect(output == "\(index)\n")
                    return await child.status()
                }
            }
            var codes: [Int32] = []
            for try await status in group { codes.append(status.exitCode ?? -1) }
            #expect(codes.sorted() == (0..<40).map { Int32($0 % 7) }.sorted())
        }
    }

    @Test func aProgramThatCannotStartIsASpawnFailure() {
        #expect(throws: SpawnFailure.self) { _ = try SystemHost().spawn(ChildProcess(["/nonexistent/lanes-\(UUID().uuidString)"]), input: nil) }
    }

    @Test func signalsArriveOnTheStream() async throws {
        let signals = SystemHost().signals([SIGUSR2])
        kill(getpid(), SIGUSR2)
        var iterator = signals.makeAsyncIterator()
        #expect(await iterator.next() == SIGUSR2)
    }

    @Test func aGroupIsEndedAtOnceWhenItObeysAndKilledAfterTheGraceWhenNot() async throws {
        let host = SystemHost()
        let obedient = try host.spawn(ChildProcess(["sleep", "30"]), input: nil)
        // On a clock nobody advances, `end` can only return because the group emptied, never by its
        // grace period running out: no wall-clock bound that a loaded machine could break.
        let stillClock = VirtualClock()
        await ProcessGroup.end(groups: [obedient.pid], leaders: [obedient], grace: .seconds(20), host: TestHost(clock: stillClock))
        #expect(stillClock.now == HostInstant(sinceOrigin: .zero), "no time passed: the wait ended with the group")
        #expect(await obedient.status() == .signaled(SIGTERM))

        let stubborn = try host.spawn(ChildProcess(["sh", "-c", "trap '' TERM; echo ready; sleep 30 & wait"]), input: nil)
        var lines = stubborn.output.makeAsyncIterator()
        _ = await lines.next()  // "ready": the trap is set
        let clock = VirtualClock()
        let virtual = TestHost(clock: clock)
        async let ended: Void = ProcessGroup.end(groups: [stubborn.pid], leaders: [stubborn], grace: .seconds(3), host: virtual)
        await clock.waitForSleepers()  // the grace period: the leader has not ended
        #expect(stubborn.endedStatus == nil, "it ignores SIGTERM")
        clock.advance(by: .seconds(3))
        await ended
        #expect(await stubborn.status() == .signaled(SIGKILL))
    }
}

/// A child's output buffer under a child that never pauses: the consumer takes a chunk while the
/// next is already waiting, so the buffer never empties. What was handed out must go anyway (it
/// kept every chunk, the whole output, until the buffer emptied: 100 MiB of output held 170 MB).
@Suite(.timeLimit(.minutes(3))) struct ChildOutputBufferTests {
    @Test func chunksHandedOutAreReleasedWhileTheBufferNeverEmpties() async {
        let output = ChildOutput()
        output.yield(ChildOutputChunk(stream: .standardOutput, bytes: [0]))
        var iterator = output.makeAsyncIterator()
        var received = 0
        for number in 1...1000 {
            output.yield(ChildOutputChunk(stream: .standardOutput, bytes: [UInt8(number % 256)]))
            if await iterator.next() != nil { received += 1 }
            #expect(output.heldChunks <= 2 * ChildOutput.consumedChunksKept, "after \(number) chunks the buffer holds \(output.heldChunks)")
        }
        #expect(received == 1000)
        output.finish()
        #expect(await iterator.next()?.bytes == [UInt8(1000 % 256)], "the last chunk still comes, in order")
        #expect(await iterator.next() == nil)
    }
}
