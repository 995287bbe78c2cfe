import Foundation
import Testing
@testable import LanesXcode

/// Edits real projects and checks the result three ways: the diff holds only the intended lines,
/// Foundation parses the file and sees the values, and the Python pbxproj package sees them too.
@Suite(.timeLimit(.minutes(3))) struct CorpusEditTests {
    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent), arguments: TestData.corpusFiles)
    func signingEditChangesOnlyIntendedLines(file: URL) async throws {
        let bytes = try TestData.bytes(file)
        let project = try XcodeProject(bytes: bytes)
        let target = try #require(project.targets.first)
        let configuration = try #require(try project.configurations(of: target).first)
        let settings = try #require(configuration.buildSettings)

        var session = ProjectEditSession(project: project)
        let replacedKey = settings.keys.first { $0 != "LANES_NEW_SETTING" }
        try session.setBuildSetting("LANES_NEW_SETTING", to: .string("a value/with spaces"), in: configuration)
        try session.setBuildSetting("LANES_NEW_LIST", to: .array(["$(inherited)", "-D", "LANES"]), in: configuration)
        if let replacedKey {
            try session.setBuildSetting(replacedKey, to: .string("lanes-replaced"), in: configuration)
        }
        let edited = try session.finish()

        // Only the intended lines differ.
        let (removed, added) = changedLines(String(decoding: bytes, as: UTF8.self), String(decoding: edited.document.bytes, as: UTF8.self))
        let replacedLines = replacedKey.map { key in removed.filter { $0.contains(PBXQuoting.render(key) + " = ") } } ?? []
        #expect(removed.count == replacedLines.count)
        var expectedAdded = ["LANES_NEW_LIST = (", "\t\"$(inherited)\",", "\t\"-D\",", "\tLANES,", ");",
                             "LANES_NEW_SETTING = \"a value/with spaces\";"]
        if let replacedKey { expectedAdded.append(PBXQuoting.render(replacedKey) + " = \"lanes-replaced\";") }
        #expect(added.sorted() == expectedAdded.map { "\t\t\t\t" + $0 }.sorted())

        // Foundation reads the new values.
        let reference = try #require(try IndependentReaders.foundation(edited.document.bytes))
        let objects = try #require(reference["objects"] as? NSDictionary)
        let referenceSettings = try #require((objects[configuration.id] as? NSDictionary)?["buildSettings"] as? NSDictionary)
        #expect(referenceSettings["LANES_NEW_SETTING"] as? String == "a value/with spaces")
        #expect(referenceSettings["LANES_NEW_LIST"] as? [String] == ["$(inherited)", "-D", "LANES"])
        if let replacedKey { #expect(referenceSettings[replacedKey] as? String == "lanes-replaced") }

        // The Python pbxproj package reads them as well.
        try #require(IndependentReaders.pythonPBXProjAvailable, "python3 -m pip install pbxproj (make test installs it)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-corpus-\(UUID().uuidString).pbxproj")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data(edited.document.bytes).write(to: path)
        #expect(try await IndependentReaders.pythonBuildSetting(file: path.path, configurationID: configuration.id, key: "LANES_NEW_SETTING")
                == #""a value/with spaces""#)
        #expect(try await IndependentReaders.pythonBuildSetting(file: path.path, configurationID: configuration.id, key: "LANES_NEW_LIST")
                == #"["$(inherited)", "-D", "LANES"]"#)
    }

    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent), arguments: TestData.corpusFiles)
    func provisioningEveryTargetReleaseKeepsTheFileReadable(file: URL) throws {
        let project = try XcodeProject(bytes: try TestData.bytes(file))
        let configurations = try project.configurations(of: project.targets, .all).filter { $0.name == "Release" }
        var session = ProjectEditSession(project: project)
        let facts = ProvisioningFacts(name: "Lanes Profile", uuid: "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9",
                                      teamIdentifier: "ABCDE12345", kind: .appStore)
        try session.applySigning(SigningSettings(profile: facts), to: configurations)
        let edited = try session.finish()
        let objects = try #require(try IndependentReaders.foundation(edited.document.bytes)?["objects"] as? NSDictionary)
        for configuration in configurations {
            let settings = try #require((objects[configuration.id] as? NSDictionary)?["buildSettings"] as? NSDictionary)
            #expect(settings["PROVISIONING_PROFILE_SPECIFIER"] as? String == "Lanes Profile")
            #expect(settings["CODE_SIGN_STYLE"] as? String == "Manual")
            #expect(settings["CODE_SIGN_IDENTITY"] as? String == "Apple Distribution")
            for case let key as String in settings.allKeys where key.hasPrefix("DEVELOPMENT_TEAM") {
                #expect(settings[key] as? String == "ABCDE12345", "\(key) in \(configuration.scopeName)")
            }
        }
        // Reading the edited file again finds the same targets.
        #expect(edited.targets == project.targets)
    }
}
