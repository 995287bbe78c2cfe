import Foundation
import LanesTestSupport
import Testing
@testable import LanesXcode
import LanesPlatform

@Suite(.timeLimit(.minutes(3))) struct InfoPlistEditorTests {
    private let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>CFBundleShortVersionString</key>
    \t<string>1.4</string>
    \t<key>CFBundleVersion</key>
    \t<string>41</string>
    \t<key>Nested</key>
    \t<dict>
    \t\t<key>CFBundleVersion</key>
    \t\t<string>nested</string>
    \t</dict>
    </dict>
    </plist>

    """

    @Test func editsOnlyTheValueCharacters() throws {
        var editor = try InfoPlistEditor(bytes: Array(xml.utf8))
        #expect(try editor.set("CFBundleVersion", to: "42") == "41")
        #expect(String(decoding: editor.bytes, as: UTF8.self) == xml.replacing("<string>41</string>", with: "<string>42</string>"))
    }

    @Test func addsAMissingKeyBeforeTheClosingDict() throws {
        var editor = try InfoPlistEditor(bytes: Array(xml.utf8))
        #expect(try editor.set("LSRequiresIPhoneOS", to: "a<b") == nil)
        let text = String(decoding: editor.bytes, as: UTF8.self)
        #expect(text == xml.replacing("\t</dict>\n</dict>", with: "\t</dict>\n\t<key>LSRequiresIPhoneOS</key>\n\t<string>a&lt;b</string>\n</dict>"))
        #expect(try editor.string(forKey: "LSRequiresIPhoneOS") == "a<b")
    }

    /// A plist written on one line, or with `</dict>` after the last value: the new pair goes just
    /// before `</dict>` on its line, not at the start of that line (before `<?xml`, or between a key
    /// and its value).
    @Test(arguments: [
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleVersion</key><string>41</string></dict></plist>"#,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleVersion</key>\n\t<string>41</string></dict>\n</plist>\n",
    ])
    func addsAMissingKeyWhenTheClosingDictSharesItsLine(plist: String) throws {
        var editor = try InfoPlistEditor(bytes: Array(plist.utf8))
        #expect(try editor.set("ITSAppUsesNonExemptEncryption", to: "NO") == nil)
        #expect(String(decoding: editor.bytes, as: UTF8.self)
                == plist.replacing("</string></dict>", with: "</string><key>ITSAppUsesNonExemptEncryption</key><string>NO</string></dict>"))
        #expect(try editor.string(forKey: "CFBundleVersion") == "41")
    }

    @Test func rewritesBinaryPlistsAsBinary() throws {
        let binary = try PropertyListSerialization.data(fromPropertyList: ["CFBundleVersion": "7", "Other": 3], format: .binary, options: 0)
        var editor = try InfoPlistEditor(bytes: Array(binary))
        try editor.set("CFBundleVersion", to: "8")
        #expect(editor.bytes.starts(with: Array("bplist".utf8)))
        let reread = try PropertyListSerialization.propertyList(from: Data(editor.bytes), format: nil) as? [String: Any]
        #expect(reread?["CFBundleVersion"] as? String == "8")
        #expect(reread?["Other"] as? Int == 3)
    }

    @Test func rejectsWhatIsNotAPlist() {
        #expect(throws: InfoPlistEditor.Failure.self) { _ = try InfoPlistEditor(bytes: Array("not a plist <".utf8)) }
    }
}

@Suite(.timeLimit(.minutes(3))) struct AtomicFileTests {
    @Test func replacesTheFileAndKeepsItsPermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("project.pbxproj")
        try Data("old".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        try AtomicFile.write(Array("new".utf8), to: file.path)
        #expect(try String(contentsOf: file, encoding: .utf8) == "new")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o640)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["project.pbxproj"])
    }

    @Test func writesThroughASymbolicLinkAndKeepsTheLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.pbxproj")
        let link = directory.appendingPathComponent("project.pbxproj")
        try Data("old".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.pbxproj")
        try AtomicFile.write(Array("new".utf8), to: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.pbxproj")
        #expect(try String(contentsOf: real, encoding: .utf8) == "new")
    }

    /// `--junit /dev/null` must not replace the device node: a pipe or device is written in place.
    @Test func aPipeIsWrittenInPlaceNotReplaced() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("report.xml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try Program.start(["/bin/cat", fifo])
        try AtomicFile.write(Array("through the pipe".utf8), to: fifo)
        #expect(await reader.finish().standardOutput == "through the pipe")
        let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(type != .typeRegular, "the pipe is still a pipe")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.xml"], "no temporary file left")
    }

    @Test func failsWithoutTouchingAnythingWhenTheFolderIsMissing() {
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write([1, 2, 3], to: "/nonexistent-lanes-folder/project.pbxproj") }
    }
}
