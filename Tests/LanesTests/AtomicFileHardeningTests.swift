import Testing
import LanesPlatform

/// Findings 17 and 19 of issue 10: atomic writes keep owner and mode, refuse read-only files and
/// clean up after writers that were killed.
@Suite(.timeLimit(.minutes(3))) struct AtomicFileHardeningTests {
    @Test func aReadOnlyFileIsRefusedAndLeftAsItWas() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/project.pbxproj"
        try AtomicFile.write("original", to: path, permissions: 0o444)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("replaced", to: path) }
        #expect(try FilePath.read(path) == "original")
        #expect(FilePath.entries(of: folder.path) == ["project.pbxproj"])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func rewritingKeepsTheOwnerAndTheMode() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/project.pbxproj"
        try AtomicFile.write("original", to: path, permissions: 0o664)
        #expect(chown(path, 65534, 65534) == 0)
        try AtomicFile.write("edited", to: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_uid == 65534 && info.st_gid == 65534)
        #expect(info.st_mode & 0o777 == 0o664)
        #expect(try FilePath.read(path) == "edited")
    }

    @Test func aTemporaryFileOfAKilledWriterIsRemovedByTheNextWrite() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/project.pbxproj"
        try AtomicFile.write("one", to: path)
        let dead = deadProcessID()
        let leftover = folder.path + "/.project.pbxproj.lanes-tmp-\(dead)-Ab12Cd"
        let live = folder.path + "/.project.pbxproj.lanes-tmp-1-Ef34Gh"  // pid 1 is alive: its writer may still be at work
        try AtomicFile.write("half", to: leftover)
        try AtomicFile.write("busy", to: live)
        try AtomicFile.write("two", to: path)
        #expect(Set(FilePath.entries(of: folder.path)) == ["project.pbxproj", ".project.pbxproj.lanes-tmp-1-Ef34Gh"])
    }

    private func deadProcessID() -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        posix_spawn(&pid, "/bin/true", nil, nil, &argv, ProcessEnvironment.block)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }
}
