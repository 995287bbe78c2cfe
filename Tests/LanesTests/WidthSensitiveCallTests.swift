import Foundation
import LanesPlatform
import LanesTestSupport
import Testing

/// Issue 32: the C calls whose types differ between glibc and Darwin live in LanesPlatform, behind
/// Swift values; these check that the services do what the raw calls did, on the OS the tests run on.
@Suite(.timeLimit(.minutes(3))) struct WidthSensitiveCallTests {
    @Test func pendingBytesCountsWhatWaitsInAPipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(FileDescriptorIO.pendingBytes(in: ends[0]) == 0)
        #expect(FileDescriptorIO.writeAll(Array("hello".utf8), to: ends[1]))
        #expect(FileDescriptorIO.pendingBytes(in: ends[0]) == 5)
        var two = [UInt8](repeating: 0, count: 2)
        #expect(read(ends[0], &two, 2) == 2)
        #expect(FileDescriptorIO.pendingBytes(in: ends[0]) == 3)
        #expect(FileDescriptorIO.pendingBytes(in: -1) == 0, "a descriptor that cannot say counts as empty")
    }

    /// Whole and fractional seconds reach the socket as the kernel reads them back (Linux keeps them in
    /// jiffies, so within a few milliseconds), and nil leaves a direction as it was.
    @Test func timeoutsKeepTheirFractionOfASecond() throws {
        let descriptor = StreamSocket.open(family: AF_INET)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(SocketOptions.timeout(descriptor, .receive) == 0)
        #expect(SocketOptions.setTimeouts(descriptor, receive: 1.5, send: 0.25))
        #expect(abs((SocketOptions.timeout(descriptor, .receive) ?? 0) - 1.5) < 0.01)
        #expect(abs((SocketOptions.timeout(descriptor, .send) ?? 0) - 0.25) < 0.01)
        #expect(SocketOptions.setTimeouts(descriptor, receive: 3))
        #expect(abs((SocketOptions.timeout(descriptor, .receive) ?? 0) - 3) < 0.01)
        #expect(abs((SocketOptions.timeout(descriptor, .send) ?? 0) - 0.25) < 0.01, "the send timeout was left alone")
    }

    @Test func bufferSizesAndFlagsReachTheSocket() throws {
        let descriptor = StreamSocket.open(family: AF_INET)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(SocketOptions.setBufferSizes(descriptor, receive: 4096, send: 1 << 20))
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0)
        #expect(size >= 1 << 20, "the kernel keeps at least what was asked (Linux doubles it)")
        #expect(SocketOptions.disableCoalescing(descriptor))
        #expect(SocketOptions.allowAddressReuse(descriptor))
        #expect(SocketOptions.resetOnClose(descriptor))
        #expect(SocketOptions.pendingError(descriptor) == 0)
        #expect(!SocketOptions.setTimeouts(-1, receive: 1), "a failure is reported, not hidden")
    }

    /// On glibc the allocator takes both settings; elsewhere it says it has none.
    @Test func theAllocatorSaysWhatItKept() {
        let setting = AllocatorTuning.keepFreedMemory()
        if HostPlatform.isMacOS {
            #expect(setting == nil)
        } else {
            #expect(setting?.contains("M_TRIM_THRESHOLD 512 MiB") == true)
        }
    }

    /// A child's resource usage from wait4, in the same units as the process's own.
    @Test func aChildsUsageIsInBytesAndSeconds() throws {
        var actions = ChildProcess.newFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A child that ends at once: the wait4 below holds this thread for milliseconds only.
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(":"), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, ProcessEnvironment.block) == 0)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let child = ProcessUsage(usage)
        #expect(status == 0)
        #expect(child.peakResidentBytes > 100_000 && child.peakResidentBytes < 1 << 30, "\(child.peakResidentBytes) bytes")
        #expect(child.cpuSeconds >= 0 && child.cpuSeconds < 60)
    }
}
