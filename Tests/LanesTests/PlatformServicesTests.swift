import Foundation
import LanesPlatform
import LanesTestSupport
import Testing

/// LanesPlatform's per-OS services, on the OS the tests run on.
@Suite(.timeLimit(.minutes(3)), .serialized) struct PlatformServicesTests {
    /// Issue 21: SIGPIPE is suppressed around one call, not for the whole process. A write to a
    /// pipe nobody reads fails with EPIPE, leaves no SIGPIPE pending and the disposition as it was.
    @Test func aBrokenPipeFailsTheCallInsteadOfRaisingSIGPIPE() throws {
        var before = sigaction()
        sigaction(SIGPIPE, nil, &before)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        var byte: UInt8 = 0x78
        let (written, error) = StreamSocket.withoutBrokenPipeSignal { (write(ends[1], &byte, 1), errno) }
        #expect(written == -1 && error == EPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
        var after = sigaction()
        sigaction(SIGPIPE, nil, &after)
        // The handler is the struct's first field on both C libraries.
        #expect(withUnsafeBytes(of: before) { $0.load(as: UInt.self) } == withUnsafeBytes(of: after) { $0.load(as: UInt.self) })
    }

    @Test func xdgFoldersWinAndTheOSDefaultIsUnderHome() {
        #expect(UserFolders.cacheBase(environment: ["XDG_CACHE_HOME": "/x/cache"], home: "/h") == "/x/cache")
        #expect(UserFolders.stateBase(environment: ["XDG_STATE_HOME": "/x/state"], home: "/h") == "/x/state")
        let cache = UserFolders.cacheBase(environment: [:], home: "/h")
        let state = UserFolders.stateBase(environment: [:], home: "/h")
        #expect(cache == (HostPlatform.isMacOS ? "/h/Library/Caches" : "/h/.cache"))
        #expect(state == (HostPlatform.isMacOS ? "/h/Library/Application Support" : "/h/.local/state"))
    }

    @Test func theExecutableIsThisTestProcess() throws {
        let path = try FilePath.executable()
        #expect(path.hasPrefix("/") && FilePath.exists(path))
        #expect(FilePath.realPath(path) == path)
    }

    /// Without the kernel's answer, a name started from PATH resolves through PATH, not the current folder.
    @Test func anInvocationFromPATHResolvesThroughPATH() throws {
        #expect(FilePath.resolveInvocation("sh", path: "/nonexistent:/bin") == FilePath.realPath("/bin/sh"))
        #expect(FilePath.resolveInvocation("/bin/sh", path: nil) == FilePath.realPath("/bin/sh"))
        #expect(FilePath.resolveInvocation("no-such-program-\(UUID().uuidString)", path: "/bin") == nil)
        #expect(FilePath.resolveInvocation("", path: "/bin") == nil)
    }
}
