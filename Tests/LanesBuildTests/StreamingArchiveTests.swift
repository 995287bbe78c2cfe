import LanesTestSupport
import Foundation
import Testing
@testable import LanesBuild

/// Issue 21: archives of any size. The writers stream and switch to Zip64 and pax records where
/// the classic fields end; the thresholds are lowered here so that small files take those paths,
/// and independent readers (Python's zipfile and tarfile, Info-ZIP's unzip, GNU tar) check the result.
@Suite(.timeLimit(.minutes(10))) struct StreamingArchiveTests {
    /// A folder like a dSYM bundle: compressible, incompressible (random) and empty files in subfolders.
    static func bundle(in work: String) throws -> (folder: String, files: [String: [UInt8]]) {
        let seed = UInt64.random(in: 0 ... .max)
        print("StreamingArchiveTests seed: \(seed)")
        var random = SplitMix64(seed: seed)
        let folder = work + "/Brewer.app.dSYM"
        let files: [String: [UInt8]] = [
            "Contents/Info.plist": Array("<plist>\(String(repeating: "dwarf ", count: 400))</plist>".utf8),
            "Contents/Resources/DWARF/Brewer": (0..<5_000).map { _ in UInt8.random(in: 0...3, using: &random) },
            "Contents/Resources/DWARF/noise": (0..<3_000).map { _ in UInt8.random(in: 0...255, using: &random) },
            "Contents/Resources/empty": [],
        ]
        for (name, bytes) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        return (folder, files)
    }

    static func digest(_ bytes: [UInt8]) -> String { bytes.reduce(into: UInt64(1469598103934665603)) { $0 = ($0 ^ UInt64($1)) &* 1099511628211 }.description }

    /// Every entry over 1,000 bytes, every offset past 1,000 and a count past 3 take the Zip64
    /// path of a small zip: unzip, zipfile and lanes' own reader all read the same files back.
    @Test func aZipPastItsLimitsIsZip64ThatEveryReaderReads() async throws {
        let work = LanesCommandLine.temporaryDirectory("zip64-write").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (folder, files) = try Self.bundle(in: work)
        let zipPath = work + "/dSYM.zip"
        try ZipWriter.zip(folder: folder, rootName: "Brewer.app.dSYM", to: zipPath, limits: ZipWriter.Limits(size: 1_000, entries: 3))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zipPath)))
        // The Zip64 end record and its locator are there.
        #expect(bytes.indices.dropLast(4).contains { bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 6 && bytes[$0 + 3] == 6 })

        let python = try await Program.streams(["python3", "-c", """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            for info in sorted(z.infolist(), key=lambda i: i.filename):
                print(info.filename, info.file_size, info.compress_type, info.extract_version, len(z.read(info)))
            print(max(i.header_offset for i in z.infolist()) > 1000)
            """, zipPath])
        #expect(python.status == 0, "\(python.error)")
        #expect(python.output == """
            Brewer.app.dSYM/ 0 0 20 0
            Brewer.app.dSYM/Contents/ 0 0 20 0
            Brewer.app.dSYM/Contents/Info.plist 2415 8 45 2415
            Brewer.app.dSYM/Contents/Resources/ 0 0 20 0
            Brewer.app.dSYM/Contents/Resources/DWARF/ 0 0 20 0
            Brewer.app.dSYM/Contents/Resources/DWARF/Brewer 5000 8 45 5000
            Brewer.app.dSYM/Contents/Resources/DWARF/noise 3000 0 45 3000
            Brewer.app.dSYM/Contents/Resources/empty 0 0 45 0
            True

            """)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            let unzip = try await Program.streams(["unzip", "-t", zipPath])
            #expect(unzip.status == 0, "\(unzip.output)\(unzip.error)")
            #expect(unzip.output.contains("No errors detected"), "\(unzip.output)")
        }
        let zip = try ZipArchive(path: zipPath)
        #expect(zip.entries.count == 8)
        for (name, contents) in files {
            let entry = try #require(zip.entries.first { $0.name == "Brewer.app.dSYM/" + name })
            #expect(try zip.contents(of: entry) == contents, "\(name)")
        }
        // Without lowered limits the same folder has no Zip64 record at all.
        try ZipWriter.zip(folder: folder, rootName: "Brewer.app.dSYM", to: zipPath)
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zipPath)))
        #expect(!plain.indices.dropLast(4).contains { plain[$0] == 0x50 && plain[$0 + 1] == 0x4B && plain[$0 + 2] == 6 && plain[$0 + 3] == 6 })
    }

    /// An .ipa written with Zip64 records by another tool (Python's zipfile, its limits lowered so a
    /// small file needs them) is read, not refused.
    @Test func anIPAWithZip64RecordsFromAnotherWriterIsRead() async throws {
        let work = LanesCommandLine.temporaryDirectory("zip64-read").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let ipa = work + "/App.ipa"
        let made = try await Program.streams(["python3", "-c", """
            import sys, zipfile
            zipfile.ZIP64_LIMIT = 64
            zipfile.ZIP_FILECOUNT_LIMIT = 2
            plist = b'<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>works.sth.big</string><key>CFBundleVersion</key><string>7</string></dict></plist>'
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, allowZip64=True) as z:
                z.writestr('Payload/', b'')
                z.writestr('Payload/Big.app/Big', b'\\0' * 100000)
                z.writestr('Payload/Big.app/Info.plist', plist)
            z = zipfile.ZipFile(sys.argv[1])
            print(sum(1 for i in z.infolist() if i.extra[:2] == b'\\x01\\x00'))
            """, ipa])
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output == "2\n", "Python wrote Zip64 fields for the two large entries")
        let inspection = try IPAInspector.inspect(path: ipa)
        #expect(inspection.bundleIdentifier == "works.sth.big")
        #expect(inspection.build == "7")
    }

    /// A Zip64 end record claiming more entries than its directory can hold is refused before
    /// anything is allocated for them.
    @Test func aZip64CountTheDirectoryCannotHoldIsRefused() throws {
        let work = LanesCommandLine.temporaryDirectory("zip64-lie").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (folder, _) = try Self.bundle(in: work)
        try ZipWriter.zip(folder: folder, rootName: "x", to: work + "/x.zip", limits: ZipWriter.Limits(size: 1_000, entries: 3))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: work + "/x.zip")))
        let record = try #require(bytes.indices.dropLast(4).last { bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 6 && bytes[$0 + 3] == 6 })
        for field in [24, 32] { bytes[record + field] = 0xE8; bytes[record + field + 1] = 0x03 }  // 1,000 entries
        let error = #expect(throws: BuildError.self) { _ = try ZipArchive(bytes: bytes, path: "x.zip") }
        #expect(error?.description.contains("entries in a") == true, "\(String(describing: error))")
    }

    /// An entry named to land outside the folder it is extracted to is refused.
    @Test func anEntryEscapingItsFolderIsRefused() async throws {
        let work = LanesCommandLine.temporaryDirectory("zip-escape").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        for name in ["../evil", "/etc/evil", "Payload/../../evil"] {
            let made = try await Program.streams(["python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1], 'w') as z:
                    info = zipfile.ZipInfo(sys.argv[2])
                    z.writestr(info, b'x')
                """, work + "/e.ipa", name])
            #expect(made.status == 0, "\(made.error)")
            let error = #expect(throws: BuildError.self) { _ = try IPAInspector.inspect(path: work + "/e.ipa") }
            #expect(error?.description.contains("outside the folder") == true, "\(name): \(String(describing: error))")
        }
    }

    /// A name no ustar header holds (a 200-byte folder name) and a size at the lowered ustar limit
    /// go into pax headers; GNU tar and Python's tarfile read names, sizes and bytes back.
    @Test func longNamesAndLargeSizesGoIntoPaxHeaders() async throws {
        let work = LanesCommandLine.temporaryDirectory("tar-pax").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (folder, files) = try Self.bundle(in: work)
        let long = "tool/" + String(repeating: "d", count: 200) + "/Brewer"
        let packed = try ArtifactPacker.pack(
            name: "tool", version: "1", commit: "c",
            entries: [ArtifactEntry(sourcePath: folder + "/Contents/Resources/DWARF/Brewer", archiveName: long),
                      ArtifactEntry(sourcePath: folder + "/Contents/Resources/DWARF/noise", archiveName: "tool/noise"),
                      ArtifactEntry(sourcePath: folder + "/Contents/Resources/empty", archiveName: "tool/empty")],
            outputDirectory: work + "/out", buildTimeSecondsSince1970: 0, largestUstarSize: 4_000)
        let python = try await Program.streams(["python3", "-c", """
            import sys, tarfile, hashlib
            with tarfile.open(sys.argv[1], 'r:gz') as t:
                for m in t.getmembers():
                    data = t.extractfile(m).read()
                    print(m.name, m.size, len(data), sorted(m.pax_headers))
            """, packed.artifactPath])
        #expect(python.status == 0, "\(python.error)")
        #expect(python.output == """
            \(long) 5000 5000 ['path', 'size']
            tool/noise 3000 3000 []
            tool/empty 0 0 []

            """)
        let gnu = try await Program.streams(["tar", "-tzvf", packed.artifactPath])
        #expect(gnu.status == 0, "\(gnu.error)")
        #expect(gnu.output.contains(" 5000 ") && gnu.output.contains(long), "\(gnu.output)")
        let extracted = work + "/x"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        #expect(try await Program.streams(["tar", "-xzf", packed.artifactPath, "-C", extracted]).status == 0)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: extracted + "/" + long))) == files["Contents/Resources/DWARF/Brewer"])
        // The manifest's checksum is that of the streamed bytes.
        #expect(try ArtifactCheck.verify(manifestPath: packed.manifestPath).sha256 == packed.manifest.sha256)
    }
}

extension StreamingArchiveTests {
    /// An Info.plist whose directory entry claims 200 MB (within deflate's ratio of its data, so
    /// the ratio check alone lets it through) is refused before anything is inflated.
    @Test func metadataClaimingHundredsOfMegabytesIsNotReadIntoMemory() async throws {
        let work = LanesCommandLine.temporaryDirectory("zip-big-plist").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let made = try await Program.streams(["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('Payload/Big.app/Info.plist', b'<plist>' + b' ' * (200 << 20) + b'</plist>')
            """, work + "/big.ipa"])
        #expect(made.status == 0, "\(made.error)")
        let error = #expect(throws: BuildError.self) { _ = try IPAInspector.inspect(path: work + "/big.ipa") }
        #expect(error?.description.contains("more than the 67108864 lanes reads into memory") == true, "\(String(describing: error))")
    }
}
