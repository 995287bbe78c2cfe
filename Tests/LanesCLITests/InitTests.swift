import LanesTestSupport
import Foundation
import Testing
@testable import LanesCommands

/// `lanes init` in front of a real Xcode project (the Example/ Brewer project): names from the
/// project, a Lanefile that compiles and runs, `.gitignore` lines git honours, CI snippets that run
/// as written on a fresh clone.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct InitTests {
    let lanes = LanesCommandLine()
    static let example = LanesCommandLine.repositoryRoot.appendingPathComponent("Example")

    /// A copy of Example/ (Brewer.xcodeproj, Configs, codesigning) in a fresh folder.
    func exampleCopy() throws -> URL {
        let directory = LanesCommandLine.temporaryDirectory("init-example")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.example.path) {
            try FileManager.default.copyItem(at: Self.example.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory
    }

    @discardableResult
    func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let result = try await Program.run(arguments, in: directory.path, environment: lanes.environment.merging(environment) { $1 })
        return (result.status, result.output)
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
        #expect(try XcodeProjectSurvey.survey(directory: LanesCommandLine.temporaryDirectory("empty").path) == nil)
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

    @Test func initFitsTheExampleProjectAndItsJenkinsSnippetRunsOnAFreshClone() async throws {
        let project = try exampleCopy()
        defer { try? FileManager.default.removeItem(at: project) }
        let initialized = try await lanes.run(["init"], in: project)
        #expect(initialized.status == 0, "\(initialized.output)")
        #expect(initialized.standardOutput.contains("found Brewer.xcodeproj: app target Brewer, configurations Debug, Staging, Release, Production, Release-Staging"))
        let lanefile = try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)
        for expected in ["struct Staging: Configuration", "struct Release: Configuration", #"let buildConfiguration = "Staging""#,
                         #"let appIdentifier = "works.sth.brewer.staging""#, #"let appIdentifier = "works.sth.brewer""#,
                         #"let provisioningProfile = "Brewer_Staging""#, #"let project = "Brewer.xcodeproj""#, #"targetFilter: "^Brewer$""#] {
            #expect(lanefile.contains(expected), "the Lanefile lacks \(expected)")
        }
        let listed = try await lanes.run(["list", "--json"], in: project)
        #expect(listed.status == 0, "the generated Lanefile does not compile: \(listed.output)")
        #expect(listed.standardOutput.contains(#""name":"developerRelease""#))

        // git itself says what the .gitignore lines do.
        try await run(["git", "init", "-q"], in: project)
        for (path, ignored) in [(".env", true), (".env.staging", true), (".env.example", false), (".lanes/keychains/ci.keychain", true)] {
            let result = try await run(["git", "check-ignore", "-q", path], in: project)
            #expect((result.status == 0) == ignored, "\(path) should \(ignored ? "" : "not ")be ignored")
        }

        // A fresh clone, as a CI agent gets it: no build/, no .lanes/, no .env.
        try await run(["git", "add", "."], in: project)
        try await run(["git", "-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "Initial"], in: project)
        let cloneParent = LanesCommandLine.temporaryDirectory("init-clone")
        // The clone holds a built project (about 80 MB): left behind, every run of the suite would pile one up.
        defer { try? FileManager.default.removeItem(at: cloneParent) }
        let clone = cloneParent.appendingPathComponent("brewer")
        #expect(try await run(["git", "clone", "-q", project.path, clone.path], in: project).status == 0)
        #expect(!FileManager.default.fileExists(atPath: clone.appendingPathComponent("build").path))
        let bin = URL(fileURLWithPath: try LanesCommandLine.executable).deletingLastPathComponent().path
        let snippet = try await run(["sh", "ci/jenkins-shell-step.sh"], in: clone, environment: [
            "PATH": bin + ":" + (lanes.environment["PATH"] ?? "/usr/bin:/bin"),
            "KEYCHAIN_NAME": "ci", "KEYCHAIN_PASSWORD": "kc-password", "CERTIFICATE_PASSWORD": "brewer-3des-pass",
        ])
        #expect(snippet.status == 0, "\(snippet.output)")
        let report = try String(contentsOf: clone.appendingPathComponent("build/lanes-junit.xml"), encoding: .utf8)
        #expect(report.contains("<testsuite"))
        #expect(!snippet.output.contains("brewer-3des-pass"))
    }
}
