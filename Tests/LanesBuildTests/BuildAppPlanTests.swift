import LanesTestSupport
import Foundation
import Testing
@testable import LanesBuild

@Suite(.timeLimit(.minutes(10))) struct BuildAppPlanTests {
    static func plan(root: String, output: String) -> BuildAppPlan {
        BuildAppPlan(root: root, container: .workspace("Brewer.xcworkspace"), scheme: "Brewer", configuration: "Staging",
                     sdk: "iphoneos", clean: true, outputDirectory: output, outputName: "Brewer-Staging",
                     exportMethod: .adHoc, exportOptions: ["signingStyle": "manual", "provisioningProfiles": ["works.sth.brewer.staging": "Brewer_Staging"]])
    }

    @Test func commandsAndPaths() throws {
        let plan = Self.plan(root: "/ci/brewer", output: "out")
        #expect(plan.archiveCommand.arguments == [
            "xcodebuild", "-workspace", "Brewer.xcworkspace", "-scheme", "Brewer", "-configuration", "Staging", "-sdk", "iphoneos",
            "-destination", "generic/platform=iOS", "-archivePath", "/ci/brewer/.lanes/build/Brewer-Staging.xcarchive",
            "-derivedDataPath", "/ci/brewer/.lanes/DerivedData",
            "-resultBundlePath", "/ci/brewer/.lanes/results/Brewer-Staging-archive.xcresult", "clean", "archive",
        ])
        #expect(plan.exportCommand.arguments == [
            "xcodebuild", "-exportArchive", "-archivePath", "/ci/brewer/.lanes/build/Brewer-Staging.xcarchive",
            "-exportPath", "/ci/brewer/.lanes/build/Brewer-Staging-export",
            "-exportOptionsPlist", "/ci/brewer/.lanes/build/Brewer-Staging-ExportOptions.plist",
        ])
        #expect(plan.outputName == "Brewer-Staging.ipa")
        #expect(try plan.exportOptionsPlist().contains("<string>ad-hoc</string>"))
        #expect(plan.stalePaths.count == 3)
    }

    /// What xcodebuild leaves (an export folder with the .ipa, an archive with dSYMs) is collected.
    @Test func collectsTheIpaAndZipsTheDSYMs() async throws {
        let root = LanesCommandLine.temporaryDirectory("build-buildapp").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = Self.plan(root: root, output: root + "/out")
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: plan.exportPath, withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Fixture.path("ipa/Brewer-Staging.ipa"), toPath: plan.exportPath + "/Brewer.ipa")
        let dwarf = plan.archivePath + "/dSYMs/Brewer.app.dSYM/Contents/Resources/DWARF"
        try fileManager.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 10_000).write(to: URL(fileURLWithPath: dwarf + "/Brewer"))
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: plan.archivePath + "/dSYMs/Brewer.app.dSYM/Contents/Info.plist"))

        let outputs = try plan.collectOutputs()
        #expect(outputs.ipaPath == root + "/out/Brewer-Staging.ipa")
        #expect(outputs.dSYMZipPath == root + "/out/Brewer-Staging.app.dSYM.zip")
        #expect(try IPAInspector.inspect(path: outputs.ipaPath).bundleIdentifier == "works.sth.brewer.staging")
        #expect(!fileManager.fileExists(atPath: plan.exportPath + "/Brewer.ipa"))

        let check = try await Program.streams(["python3", "-c", """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(sorted(z.namelist()))
            print(len(z.read('dSYMs/Brewer.app.dSYM/Contents/Resources/DWARF/Brewer')), z.getinfo('dSYMs/Brewer.app.dSYM/Contents/Resources/DWARF/Brewer').compress_type)
            """, try #require(outputs.dSYMZipPath)])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output == """
            ['dSYMs/', 'dSYMs/Brewer.app.dSYM/', 'dSYMs/Brewer.app.dSYM/Contents/', 'dSYMs/Brewer.app.dSYM/Contents/Info.plist', 'dSYMs/Brewer.app.dSYM/Contents/Resources/', 'dSYMs/Brewer.app.dSYM/Contents/Resources/DWARF/', 'dSYMs/Brewer.app.dSYM/Contents/Resources/DWARF/Brewer']
            10000 8

            """)
        // The zip reader that checks .ipa files reads it too.
        let zip = try ZipArchive(bytes: try Fixture.bytesAt(try #require(outputs.dSYMZipPath)), path: "dSYM.zip")
        let dwarfEntry = try #require(zip.entries.first { $0.name.hasSuffix("DWARF/Brewer") })
        #expect(try zip.contents(of: dwarfEntry) == [UInt8](repeating: 0x42, count: 10_000))
    }

    /// gym names the .ipa and the dSYM zip after the product (detect_values.rb: output_name defaults to
    /// the app's WRAPPER_NAME without ".app"), not after the scheme: scheme "Brewer CI" builds Brewer.app.
    @Test func withoutAnOutputNameTheProductIsNamedAfterTheArchivedAppNotTheScheme() throws {
        let root = LanesCommandLine.temporaryDirectory("build-product-name").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = BuildAppPlan(root: root, container: .project("Brewer.xcodeproj"), scheme: "Brewer CI", outputDirectory: root + "/out",
                                exportMethod: .appStore)
        #expect(plan.outputName == "Brewer CI.ipa", "before the archive there is only the scheme")
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: plan.archivePath + "/Products/Applications/Brewer.app", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: plan.archivePath + "/dSYMs/Brewer.app.dSYM", withIntermediateDirectories: true)
        try Data("dwarf".utf8).write(to: URL(fileURLWithPath: plan.archivePath + "/dSYMs/Brewer.app.dSYM/Info.plist"))
        try fileManager.createDirectory(atPath: plan.exportPath, withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Fixture.path("ipa/Brewer-Staging.ipa"), toPath: plan.exportPath + "/Brewer.ipa")

        let outputs = try plan.collectOutputs()
        #expect(outputs.ipaPath == root + "/out/Brewer.ipa")
        #expect(outputs.dSYMZipPath == root + "/out/Brewer.app.dSYM.zip")
    }

    @Test func missingIpaIsNamed() throws {
        let root = LanesCommandLine.temporaryDirectory("build-buildapp-missing").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = Self.plan(root: root, output: root + "/out")
        #expect(throws: BuildError.file(path: plan.exportPath, problem: "xcodebuild -exportArchive left no .ipa, .pkg or .app here")) {
            try plan.collectOutputs()
        }
    }

    /// fastlane's gym options reach xcodebuild's argv in the order xcodebuild takes them.
    @Test func xcargsDestinationAndSkippedSigningReachTheArchiveCommand() throws {
        let plan = BuildAppPlan(root: "/ci/meow", container: .project("Meow.xcodeproj"), scheme: "Meow", platform: "macOS",
                                outputDirectory: "out", exportMethod: .developerID,
                                buildSettings: [BuildSettingOverride("CODE_SIGNING_ALLOWED", "NO")], destination: "platform=macOS,arch=arm64",
                                extraArguments: try ShellWords.split("-skipMacroValidation OTHER_SWIFT_FLAGS='-D CI'"),
                                exportExtraArguments: ["-skipPackagePluginValidation"], archivePath: "/tmp/Meow.xcarchive",
                                exportOptionsPlistFile: "/ci/meow/ExportOptions.plist")
        #expect(plan.archiveCommand.arguments == [
            "xcodebuild", "-project", "Meow.xcodeproj", "-scheme", "Meow", "-destination", "platform=macOS,arch=arm64",
            "-archivePath", "/tmp/Meow.xcarchive", "-derivedDataPath", "/ci/meow/.lanes/DerivedData",
            "-resultBundlePath", "/ci/meow/.lanes/results/Meow-archive.xcresult",
            "-skipMacroValidation", "OTHER_SWIFT_FLAGS=-D CI", "CODE_SIGNING_ALLOWED=NO", "archive",
        ])
        #expect(plan.buildCommand.arguments.last == "build" && !plan.buildCommand.arguments.contains("-archivePath"))
        #expect(plan.exportCommand.arguments == [
            "xcodebuild", "-exportArchive", "-archivePath", "/tmp/Meow.xcarchive", "-exportPath", "/ci/meow/.lanes/build/Meow-export",
            "-exportOptionsPlist", "/ci/meow/ExportOptions.plist", "-skipPackagePluginValidation",
        ])
    }

    @Test func shellWordsSplitLikeAShellWithoutExpanding() throws {
        #expect(try ShellWords.split(#"  -a "b c" 'd $HOME' e\ f "" "#) == ["-a", "b c", "d $HOME", "e f", ""])
        #expect(throws: BuildError.self) { try ShellWords.split("-a 'open") }
    }

    /// A Developer ID export leaves an .app, a Mac App Store export a .pkg: each keeps its own
    /// extension under the output name, never `Meow.app.ipa`.
    @Test(arguments: [("Meow.app", BuildProduct.Kind.app), ("Meow.pkg", .pkg)])
    func macOSExportsKeepTheirKind(produced: String, kind: BuildProduct.Kind) throws {
        let root = LanesCommandLine.temporaryDirectory("build-buildapp-mac").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = BuildAppPlan(root: root, container: .project("Meow.xcodeproj"), scheme: "Meow", platform: "macOS",
                                outputDirectory: root + "/out", outputName: "Meow-1.0.ipa", exportMethod: .developerID)
        let fileManager = FileManager.default
        if kind == .app {
            try fileManager.createDirectory(atPath: plan.exportPath + "/Meow.app/Contents", withIntermediateDirectories: true)
            try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: plan.exportPath + "/Meow.app/Contents/Info.plist"))
        } else {
            try fileManager.createDirectory(atPath: plan.exportPath, withIntermediateDirectories: true)
            try Data("xar!".utf8).write(to: URL(fileURLWithPath: plan.exportPath + "/" + produced))
        }
        let outputs = try plan.collectOutputs()
        #expect(outputs.product == BuildProduct(path: root + "/out/Meow-1.0" + kind.fileExtension, kind: kind))
        #expect(fileManager.fileExists(atPath: outputs.product.path) && !kind.isIPA)
        #expect(outputs.dSYMZipPath == nil)
    }
}
