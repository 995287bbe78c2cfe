import Foundation
import Testing
@testable import LanesXcode

@Suite(.timeLimit(.minutes(3))) struct EditorTests {
    private let settingsText = """
    {
    \tobjects = {
    \t\tC1 /* Debug */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tCODE_SIGN_STYLE = Automatic; // keep me
    \t\t\t\t"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Developer";
    \t\t\t\tSDKROOT = iphoneos;
    \t\t\t};
    \t\t\tempty = {
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t\tF1 /* a.swift */ = {isa = PBXFileReference; path = a.swift; sourceTree = "<group>"; };
    \t};
    }

    """

    private func edit(_ body: (inout PBXEditor, PBXDictionary) -> Void) throws -> String {
        let document = try PBXDocument(bytes: Array(settingsText.utf8))
        var editor = PBXEditor(document: document)
        body(&editor, document.root)
        return String(decoding: try editor.apply().bytes, as: UTF8.self)
    }

    private func settings(_ root: PBXDictionary) -> PBXDictionary {
        root["objects"]!.dictionary!["C1"]!.dictionary!["buildSettings"]!.dictionary!
    }

    @Test func replacingAValueRewritesOnlyItsBytes() throws {
        let result = try edit { editor, root in editor.set("CODE_SIGN_STYLE", to: .string("Manual"), in: settings(root)) }
        #expect(result == settingsText.replacing("CODE_SIGN_STYLE = Automatic;", with: "CODE_SIGN_STYLE = Manual;"))
    }

    @Test func insertsInSortedPositionWithTheNeighboursIndentation() throws {
        let result = try edit { editor, root in
            editor.set("PROVISIONING_PROFILE_SPECIFIER", to: .string("Brewer Staging"), in: settings(root))
            editor.set("PROVISIONING_PROFILE", to: .string("7a1d"), in: settings(root))
            editor.set("ZZZ_LAST", to: .array([.string("$(inherited)"), .string("-D")]), in: settings(root))
            editor.set("AAA_FIRST", to: .string("1"), in: settings(root))
        }
        let expected = settingsText
            .replacing("\t\t\t\tCODE_SIGN_STYLE", with: "\t\t\t\tAAA_FIRST = 1;\n\t\t\t\tCODE_SIGN_STYLE")
            .replacing("\t\t\t\tSDKROOT = iphoneos;\n",
                       with: "\t\t\t\tPROVISIONING_PROFILE = 7a1d;\n\t\t\t\tPROVISIONING_PROFILE_SPECIFIER = \"Brewer Staging\";\n"
                           + "\t\t\t\tSDKROOT = iphoneos;\n\t\t\t\tZZZ_LAST = (\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"-D\",\n\t\t\t\t);\n")
        #expect(result == expected)
    }

    @Test func insertsIntoAnEmptyDictionaryOneLevelDeeper() throws {
        let result = try edit { editor, root in
            let empty = root["objects"]!.dictionary!["C1"]!.dictionary!["empty"]!.dictionary!
            editor.set("KEY", to: .string("v"), in: empty)
        }
        #expect(result == settingsText.replacing("\t\t\tempty = {\n", with: "\t\t\tempty = {\n\t\t\t\tKEY = v;\n"))
    }

    @Test func insertsInlineInOneLineObjects() throws {
        let result = try edit { editor, root in
            let file = root["objects"]!.dictionary!["F1"]!.dictionary!
            editor.set("name", to: .string("A file"), in: file)
            editor.set("explicitFileType", to: .string("sourcecode.swift"), in: file)
        }
        #expect(result.contains(#"{explicitFileType = sourcecode.swift; isa = PBXFileReference; name = "A file"; path = a.swift; sourceTree = "<group>"; };"#))
    }

    @Test func settingTheSameValueIsNoEdit() throws {
        let document = try PBXDocument(bytes: Array(settingsText.utf8))
        var editor = PBXEditor(document: document)
        editor.set("SDKROOT", to: .string("iphoneos"), in: settings(document.root))
        #expect(!editor.hasEdits)
    }

    @Test func settingBackTheOriginalValueUndoesAnEarlierEditAndItsReport() throws {
        let project = try XcodeProject(bytes: try TestData.bytes(TestData.brewerPBXProj))
        let debug = try #require(try project.configurations(of: project.targets[0]).first)
        var session = ProjectEditSession(project: project)
        try session.setBuildSetting("SDKROOT", to: .string("macosx"), in: debug)
        try session.setBuildSetting("SDKROOT", to: .string("iphoneos"), in: debug)
        #expect(session.changes.isEmpty)
        #expect(try session.finishedBytes() == project.document.bytes)
    }

    @Test func anEqualValueWithOtherQuotesIsLeftAsWritten() throws {
        let text = """
        {
        \tobjects = {
        \t\tP = {isa = PBXProject; attributes = {}; buildConfigurationList = L; targets = (T, ); };
        \t\tT = {isa = PBXNativeTarget; name = App; buildConfigurationList = L; };
        \t\tL = {isa = XCConfigurationList; buildConfigurations = (C, ); };
        \t\tC = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tCODE_SIGN_STYLE = "Manual";
        \t\t\t};
        \t\t\tname = 'Release';
        \t\t};
        \t};
        \trootObject = P;
        }
        """
        let project = try XcodeProject(bytes: Array(text.utf8))
        let release = try #require(try project.configurations(of: project.targets(matching: "^App$").matched, .named("Release")).first)
        var session = ProjectEditSession(project: project)
        try session.setBuildSetting("CODE_SIGN_STYLE", to: .string("Manual"), in: release)
        #expect(session.changes.isEmpty)
        #expect(try session.finishedBytes() == project.document.bytes)
    }

    @Test func theLastValueForAKeyWins() throws {
        let result = try edit { editor, root in
            editor.set("SDKROOT", to: .string("macosx"), in: settings(root))
            editor.set("SDKROOT", to: .string("xros"), in: settings(root))
        }
        #expect(result == settingsText.replacing("SDKROOT = iphoneos;", with: "SDKROOT = xros;"))
    }
}
