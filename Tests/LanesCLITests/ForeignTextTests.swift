import Foundation
import LanesTestSupport
import Testing

/// Issue 31: text lanes did not write (a build log, an .ipa's Info.plist) reached the terminal with
/// its escape sequences raw, through `lanes xcode log` and the error that ends a failed `check_ipa`.
/// Each control character is shown in caret notation (`^[`) by the one function for it.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ForeignTextTests {
    let lanes = LanesCommandLine()
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"

    func expectNoRawControls(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        #expect(raw.isEmpty, "raw control characters reached the terminal: \(output.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func xcodeLogShowsALogsEscapesVisibly() async throws {
        let folder = LanesCommandLine.temporaryDirectory("foreign-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("build.log")
        try ("CompileSwift normal arm64 /x/a.swift\n/x/a.swift:1:1: error: bad \(Self.hostile) thing\n** BUILD FAILED \(Self.hostile)**\n")
            .write(to: log, atomically: true, encoding: .utf8)
        let result = try await lanes.run(["xcode", "log", log.path], in: folder)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.standardOutput.contains("error: bad ^[]0;pwned^G^[[2J thing"), "\(result.output.debugDescription)")
        expectNoRawControls(result.output)
    }

    @Test func checkIpasErrorShowsAnInfoPlistsEscapesVisibly() async throws {
        let folder = LanesCommandLine.temporaryDirectory("foreign-ipa")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ipa = folder.appendingPathComponent("Hostile.ipa").path
        let script = """
            import plistlib, sys, zipfile
            info = {"CFBundleIdentifier": "works.sth.\\x1b]0;pwned\\x07\\x1b[2J", "CFBundleShortVersionString": "1.0",
                    "CFBundleVersion": "1", "CFBundleExecutable": "Brewer", "CFBundlePackageType": "APPL"}
            with zipfile.ZipFile(sys.argv[1], "w") as archive:
                archive.writestr("Payload/Brewer.app/Info.plist", plistlib.dumps(info, fmt=plistlib.FMT_BINARY))
                archive.writestr("Payload/Brewer.app/Brewer", b"\\xcf\\xfa\\xed\\xfe")
            """
        let made = try await Program.streams(["python3", "-c", script, ipa])
        try #require(made.status == 0, "\(made.error)")
        let result = try await lanes.run(["run", "check_ipa", "path:\(ipa)", "app_identifier:works.sth.brewer.staging"], in: folder)
        #expect(result.status != 0, "\(result.output)")
        #expect(result.standardError.contains("works.sth.^[]0;pwned^G^[[2J"), "\(result.output.debugDescription)")
        expectNoRawControls(result.output)
    }
}
