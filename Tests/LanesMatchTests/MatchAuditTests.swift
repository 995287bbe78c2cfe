import Foundation
import Lanes
import LanesMatch
import LanesTestSupport
import Testing

/// Issue 31: `match decrypt --output DIR` wrote clear private keys through Foundation's
/// `createFile` (a 0644 temporary file, then chmod) into whatever folder was there, another user's
/// included; and a storage was read whole, whatever it held.
@Suite(.timeLimit(.minutes(10))) struct MatchAuditTests {
    static let nobody: uid_t = 65534

    func decrypt(into output: String, fixture: MatchFixture) async throws -> (written: [String]?, error: String?) {
        let harness = try MatchHarness(environment: ["MATCH_PASSWORD": fixture.password], project: fixture.temp.path)
        defer { harness.temp.remove() }
        do {
            return (try await MatchDecrypt.resolve(["storage_mode": "storage", "output": output]).run(in: harness.context), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    /// What a clear file holds: no file under `folder` may hold it.
    func clearKeys(under folder: String) -> [String] {
        files(under: folder, containing: "PRIVATE KEY")
    }

    @Test(.enabled(if: geteuid() == 0, "making a folder another user owns needs root"))
    func anOutputFolderAnotherUserMadeIsRefused() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        // The docs' own example is /tmp/match-clear: another user can make it first.
        let output = fixture.temp.path + "/match-clear"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        chmod(output, 0o777)
        chown(output, Self.nobody, Self.nobody)
        let (written, error) = try await decrypt(into: output, fixture: fixture)
        #expect(written == nil)
        #expect(error?.contains(output) == true && error?.contains("owned by") == true, "\(error ?? "no error")")
        #expect(clearKeys(under: output).isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "making a folder another user owns needs root"))
    func aSubfolderAnotherUserMadeIsRefused() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let output = fixture.temp.path + "/mine"
        let planted = output + "/certs/distribution"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        chmod(output, 0o700)
        chown(planted, Self.nobody, Self.nobody)
        let (written, error) = try await decrypt(into: output, fixture: fixture)
        #expect(written == nil)
        #expect(error?.contains(planted) == true, "\(error ?? "no error")")
        #expect(clearKeys(under: output).isEmpty)
    }

    @Test func aFolderOthersMayWriteIsRefused() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let output = fixture.temp.path + "/shared"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        chmod(output, 0o777)
        let (written, error) = try await decrypt(into: output, fixture: fixture)
        #expect(written == nil)
        #expect(error?.contains("writable by others") == true, "\(error ?? "no error")")
        #expect(clearKeys(under: output).isEmpty)
    }

    @Test func aMissingOutputFolderIsMadeWithEveryParent0700() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let output = fixture.temp.path + "/new/clear"
        let (written, error) = try await decrypt(into: output, fixture: fixture)
        #expect(error == nil, "\(error ?? "")")
        #expect(written?.count == 7)
        for folder in [fixture.temp.path + "/new", output, output + "/certs", output + "/certs/distribution", output + "/profiles/appstore"] {
            #expect(try permissions(folder) == 0o700, "\(folder)")
        }
    }

    /// Each clear file exists with mode 0600 from the `open` that creates it (`O_EXCL`, `O_NOFOLLOW`):
    /// no moment when another user could open it. Checked on the system calls lanes makes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed"))
    func eachClearFileIsCreated0600ExclusivelyBeforeAByteIsWritten() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let output = fixture.temp.path + "/traced"
        let trace = fixture.temp.path + "/trace.txt"
        let lanes = LanesCommandLine()
        let result = try await lanes.run(["-f", "-qq", "-e", "trace=open,openat,creat,chmod,fchmod,fchmodat,rename,renameat,renameat2",
                                    "-o", trace, try LanesCommandLine.executable, "match", "decrypt", "--output", output,
                                    "--storage-mode", fixture.storage],
                                   in: URL(fileURLWithPath: fixture.temp.path),
                                   extraEnvironment: ["MATCH_PASSWORD": fixture.password], executable: "/usr/bin/strace")
        #expect(result.status == 0, "\(result.output)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let created = calls.filter { $0.contains("O_CREAT") && $0.contains(output + "/") }
        #expect(created.count == 7, "\(created.joined(separator: "\n"))")
        for call in created {
            #expect(call.contains("O_EXCL") && call.contains("O_NOFOLLOW") && call.contains(", 0600)"), "\(call)")
        }
        #expect(!calls.contains { $0.contains("chmod") && $0.contains(output + "/") }, "no file is made private after the fact")
    }

    /// A git tree naming one 64 KiB blob 65,536 times (a 244 KB repository) drove lanes to 2.5 GB
    /// and a crash. Now the read stops at the storage's limits, with a clear error, in a lanes
    /// held to 1 GB of address space.
    @Test func aGitTreeNamingOneBlob65536TimesFailsClearlyInBoundedMemory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let repository = temp.path + "/bomb.git"
        try await MatchFixture.run(["git", "init", "-q", "--bare", repository])
        let blobFile = temp.path + "/blob"
        try Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: blobFile))
        let blob = try await gitOutput(["-C", repository, "hash-object", "-w", blobFile])
        let entries = (0..<65536).map { "100644 blob \(blob)\tID\(String($0, radix: 16)).cer" }.joined(separator: "\n") + "\n"
        let inner = try await gitOutput(["-C", repository, "mktree"], input: entries)
        let certs = try await gitOutput(["-C", repository, "mktree"], input: "040000 tree \(inner)\tdistribution\n")
        let root = try await gitOutput(["-C", repository, "mktree"], input: "040000 tree \(certs)\tcerts\n")
        let commit = try await gitOutput(["-C", repository, "-c", "user.name=x", "-c", "user.email=x@example.com", "commit-tree", root, "-m", "bomb"])
        try await MatchFixture.run(["git", "-C", repository, "update-ref", "refs/heads/master", commit])

        let result = try await boundedLanes(["match", "decrypt", "--output", temp.path + "/out", "--git-url", repository], in: temp.path)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("more than") && result.standardError.contains("files"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/out/certs"))
    }

    /// A folder storage holding a 2 GB file (sparse: it costs no disk) took 2.8 GB.
    @Test func aFolderStorageWithATwoGigabyteFileFailsClearlyInBoundedMemory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let folder = temp.path + "/storage/certs/distribution"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let huge = folder + "/HUGE.p12"
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let result = try await boundedLanes(["match", "decrypt", "--output", temp.path + "/out", "--storage-mode", temp.path + "/storage"],
                                      in: temp.path)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("certs/distribution/HUGE.p12") && result.standardError.contains("MiB"), "\(result.standardError)")
    }

    /// Files the layout does not name (a stray folder, a link to somewhere else) are not read.
    @Test func onlyThePathsTheLayoutNamesAreRead() async throws {
        let fixture = try await MatchFixture()
        defer { fixture.temp.remove() }
        let stray = fixture.storage + "/node_modules/big"
        try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: stray + "/x.cer", contents: Data(repeating: 1, count: 16))
        try FileManager.default.createSymbolicLink(atPath: fixture.storage + "/certs/distribution/LINKED.cer", withDestinationPath: "/dev/zero")
        let files = try MatchFiles.read(folder: fixture.storage)
        #expect(files.files.keys.sorted() == ["certs/distribution/DISTID0001.cer", "certs/distribution/DISTID0001.p12",
                                               "certs/distribution/ZEXPIRED01.cer", "certs/distribution/ZEXPIRED01.p12",
                                               "match_version.txt"] + MatchFixture.profiles.map(\.storedPath).sorted())
    }

    private func boundedLanes(_ arguments: [String], in directory: String) async throws -> ProgramResult {
        let lanes = try LanesCommandLine.executable
        let command = "ulimit -v 1048576; exec \"$0\" \"$@\""
        return try await LanesCommandLine().run(["-c", command, lanes] + arguments, in: URL(fileURLWithPath: directory),
                                      extraEnvironment: ["MATCH_PASSWORD": "bounded pass"], executable: "/bin/sh")
    }

    private func gitOutput(_ arguments: [String], input: String? = nil) async throws -> String {
        let result = try await Program.run(["git"] + arguments, input: input.map { Array($0.utf8) })
        guard result.status == 0 else { throw FixtureError("git \(arguments.joined(separator: " ")): \(result.standardError)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
