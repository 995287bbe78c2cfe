import LanesTestSupport
import Foundation
import Testing
@testable import LanesCLI

/// `lanes init` in front of a real Xcode project (the Example/ Brewer project): names from the
/// project, a Lanefile that compiles and runs, `.gitignore` lines git honours, CI snippets that run
/// as written on a fresh clone.
@Suite struct InitTests {
    let lanes = LanesProcess()
    static let example = LanesProcess.repositoryRoot.appendingPathComponent("Example")

    /// A copy of Example/ (Brewer.xcodeproj, Configs, codesigning) in a fresh folder.
    func exampleCopy() throws -> URL {
        let directory = LanesProcess.temporaryDirectory("init-example")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.example.path) {
            try FileManager.default.copyItem(at: Self.example.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory
    }

    @discardableResult
    func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = lanes.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func surveyReadsTargetsConfigurationsIdentifiersAndSharedSchemes() throws {
        let project = try exampleCopy()
        defer { try? FileManager.default.removeItem(at: project) }
        let schemes = project.appendingPathComponent("Brewer.xcodeproj/xcshareddata/xcschemes")
        try FileManager.default.createDirectory(at: schemes, withIntermediateDirectories: true)
        for scheme in ["Brewer", "Brewer Staging"] {
            try "<Scheme/>".write(to: schemes.appendingPathComponent("\(scheme).xcscheme"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Brewer.xcworkspace"), withIntermediateDirectories: true)
        let survey = try #require(try XcodeProjectSurvey.survey(directory: project.path))
        #expect(survey.workspace == "Brewer.xcworkspace")
        #expect(survey.project == "Brewer.xcodeproj")
        #expect(survey.schemes == ["Brewer", "Brewer Staging"])
        #expect(survey.configurations == ["Debug", "Staging", "Release", "Production", "Release-Staging"])
        #expect(survey.appTarget == "Brewer")
        #expect(survey.stagingConfiguration == "Staging")
        #expect(survey.productionConfiguration == "Release")
        #expect(survey.bundleIdentifiers["Staging"] == "works.sth.brewer.staging")
        #expect(survey.bundleIdentifiers["Release"] == "works.sth.brewer")
        #expect(try XcodeProjectSurvey.survey(directory: LanesProcess.temporaryDirectory("empty").path) == nil)
    }

    @Test func valuesAreSafeSwift() {
        #expect(InitValues.typeName(forConfiguration: "Release-Staging") == "ReleaseStaging")
        #expect(InitValues.typeName(forConfiguration: "2024 beta") == "Config2024beta")
        #expect(InitValues.literal(#"a"b\c"#) == #"a\"b\\c"#)
        #expect(InitValues.regexEscaped("Brewer (iOS)") == #"Brewer \(iOS\)"#)
    }

    @Test func gitignoreGainsOnlyMissingLinesAndKeepsTheNegationBelowItsPattern() {
        #expect(GitIgnoreEntries.merged(into: nil) == "# lanes: secrets in dotenv files, keychains and work copies\n.env\n.env.*\n!.env.example\n.lanes/\n")
        #expect(GitIgnoreEntries.merged(into: ".build/\n.env\n.env.*\n!.env.example\n.lanes/\n") == nil)
        #expect(GitIgnoreEntries.merged(into: "!.env.example\n.build/")
            == "!.env.example\n.build/\n\n# lanes: secrets in dotenv files, keychains and work copies\n.env\n.env.*\n!.env.example\n.lanes/\n")
    }

    @Test func initFitsTheExampleProjectAndItsJenkinsSnippetRunsOnAFreshClone() throws {
        let project = try exampleCopy()
        defer { try? FileManager.default.removeItem(at: project) }
        let initialized = try lanes.run(["init"], in: project)
        #expect(initialized.status == 0, "\(initialized.output)")
        #expect(initialized.standardOutput.contains("found Brewer.xcodeproj: app target Brewer, configurations Debug, Staging, Release, Production, Release-Staging"))
        let lanefile = try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)
        for expected in ["struct Staging: Configuration", "struct Release: Configuration", #"let buildConfiguration = "Staging""#,
                         #"let appIdentifier = "works.sth.brewer.staging""#, #"let appIdentifier = "works.sth.brewer""#,
                         #"let provisioningProfile = "Brewer_Staging""#, #"let project = "Brewer.xcodeproj""#, #"targetFilter: "^Brewer$""#] {
            #expect(lanefile.contains(expected), "the Lanefile lacks \(expected)")
        }
        let listed = try lanes.run(["list", "--json"], in: project)
        #expect(listed.status == 0, "the generated Lanefile does not compile: \(listed.output)")
        #expect(listed.standardOutput.contains(#""name":"developerRelease""#))

        // git itself says what the .gitignore lines do.
        try run(["git", "init", "-q"], in: project)
        for (path, ignored) in [(".env", true), (".env.staging", true), (".env.example", false), (".lanes/keychains/ci.keychain", true)] {
            let result = try run(["git", "check-ignore", "-q", path], in: project)
            #expect((result.status == 0) == ignored, "\(path) should \(ignored ? "" : "not ")be ignored")
        }

        // A fresh clone, as a CI agent gets it: no build/, no .lanes/, no .env.
        try run(["git", "add", "."], in: project)
        try run(["git", "-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "Initial"], in: project)
        let cloneParent = LanesProcess.temporaryDirectory("init-clone")
        // The clone holds a built project (about 80 MB): left behind, every run of the suite would pile one up.
        defer { try? FileManager.default.removeItem(at: cloneParent) }
        let clone = cloneParent.appendingPathComponent("brewer")
        #expect(try run(["git", "clone", "-q", project.path, clone.path], in: project).status == 0)
        #expect(!FileManager.default.fileExists(atPath: clone.appendingPathComponent("build").path))
        let bin = URL(fileURLWithPath: try LanesProcess.executable).deletingLastPathComponent().path
        let snippet = try run(["sh", "ci/jenkins-shell-step.sh"], in: clone, environment: [
            "PATH": bin + ":" + (lanes.environment["PATH"] ?? "/usr/bin:/bin"),
            "KEYCHAIN_NAME": "ci", "KEYCHAIN_PASSWORD": "kc-password", "CERTIFICATE_PASSWORD": "brewer-3des-pass",
        ])
        #expect(snippet.status == 0, "\(snippet.output)")
        let report = try String(contentsOf: clone.appendingPathComponent("build/lanes-junit.xml"), encoding: .utf8)
        #expect(report.contains("<testsuite"))
        #expect(!snippet.output.contains("brewer-3des-pass"))
    }
}
