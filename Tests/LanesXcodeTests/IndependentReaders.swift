import Foundation
import LanesTestSupport

/// Readers that share no code with LanesXcode, to confirm an edited file means what we think.
enum IndependentReaders {
    /// The top-level dictionary as Foundation's PropertyListSerialization reads it.
    static func foundation(_ bytes: [UInt8]) throws -> NSDictionary? {
        try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? NSDictionary
    }

    /// Whether python3 with the `pbxproj` package (PyPI) is installed; `make test` installs it.
    static let pythonPBXProjAvailable = Program.succeeds(["python3", "-c", "import pbxproj"])

    /// A build setting of one XCBuildConfiguration object, as the Python `pbxproj` package reads it
    /// (JSON: a string or an array of strings), or nil when the setting is absent.
    static func pythonBuildSetting(file: String, configurationID: String, key: String) async throws -> String? {
        let script = """
        import sys, json
        from pbxproj import XcodeProject
        project = XcodeProject.load(sys.argv[1])
        settings = project.objects[sys.argv[2]].buildSettings
        value = settings[sys.argv[3]] if sys.argv[3] in settings else None
        print(json.dumps(value if value is None or isinstance(value, str) else list(value)))
        """
        let result = try await Program.run(["python3", "-c", script, file, configurationID, key])
        guard result.status == 0 else { throw PythonFailure(output: result.output) }
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return text == "null" ? nil : text
    }

    struct PythonFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "python pbxproj failed: \(output)" }
    }
}
