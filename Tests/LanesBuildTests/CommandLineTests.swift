import LanesPlatform
import LanesTestSupport
import Foundation
import Testing
@testable import LanesBuild

@Suite(.timeLimit(.minutes(10))) struct CommandLineTests {
    @Test func archiveOfAWorkspaceWithEveryOption() {
        let command = XcodebuildCommand.archive(ArchiveRequest(
            container: .workspace("Brewer.xcworkspace"), scheme: "Brewer", configuration: "Staging", sdk: "iphoneos",
            archivePath: ".lanes/build/Brewer.xcarchive", clean: true,
            derivedDataPath: LanesBuildFolders.derivedData(root: "."),
            resultBundlePath: ".lanes/results/Brewer-archive.xcresult",
            provisioningUpdates: .allowedWithKey(AppStoreConnectKey(keyPath: "/secure/AuthKey_ABC123.p8", keyID: "ABC123",
                                                                    issuerID: "69a6de70-0000-47e3-e053-5b8c7c11a4d1"))))
        #expect(command.arguments == [
            "xcodebuild", "-workspace", "Brewer.xcworkspace", "-scheme", "Brewer", "-configuration", "Staging",
            "-sdk", "iphoneos", "-destination", "generic/platform=iOS", "-archivePath", ".lanes/build/Brewer.xcarchive",
            "-derivedDataPath", ".lanes/DerivedData", "-resultBundlePath", ".lanes/results/Brewer-archive.xcresult",
            "-allowProvisioningUpdates", "-authenticationKeyPath", "/secure/AuthKey_ABC123.p8",
            "-authenticationKeyID", "ABC123", "-authenticationKeyIssuerID", "69a6de70-0000-47e3-e053-5b8c7c11a4d1",
            "clean", "archive",
        ])
    }

    @Test func archiveOfAProjectWithTheFewestOptions() {
        let command = XcodebuildCommand.archive(ArchiveRequest(
            container: .project("Brewer.xcodeproj"), scheme: "Brewer", platform: "tvOS",
            archivePath: "out/Brewer.xcarchive", derivedDataPath: LanesBuildFolders.derivedData(root: "/ci/brewer")))
        #expect(command.arguments == [
            "xcodebuild", "-project", "Brewer.xcodeproj", "-scheme", "Brewer", "-destination", "generic/platform=tvOS",
            "-archivePath", "out/Brewer.xcarchive", "-derivedDataPath", "/ci/brewer/.lanes/DerivedData", "archive",
        ])
    }

    @Test func exportArchive() {
        #expect(XcodebuildCommand.exportArchive(archivePath: "a.xcarchive", exportPath: "out", exportOptionsPlist: "e.plist").arguments
            == ["xcodebuild", "-exportArchive", "-archivePath", "a.xcarchive", "-exportPath", "out", "-exportOptionsPlist", "e.plist"])
        #expect(XcodebuildCommand.exportArchive(archivePath: "a", exportPath: "o", exportOptionsPlist: "e", provisioningUpdates: .allowed).arguments.last
            == "-allowProvisioningUpdates")
    }

    @Test func testOnTwoSimulators() {
        let command = XcodebuildCommand.test(TestRequest(
            container: .workspace("Brewer.xcworkspace"), scheme: "Brewer",
            destinations: ["iPhone 15", "iPad Air"].map { TestDestination.simulator($0) },
            derivedDataPath: ".lanes/DerivedData", resultBundlePath: ".lanes/results/Brewer-test.xcresult"))
        #expect(command.arguments == [
            "xcodebuild", "-workspace", "Brewer.xcworkspace", "-scheme", "Brewer",
            "-destination", "platform=iOS Simulator,name=iPhone 15", "-destination", "platform=iOS Simulator,name=iPad Air",
            "-derivedDataPath", ".lanes/DerivedData", "-resultBundlePath", ".lanes/results/Brewer-test.xcresult", "test",
        ])
        #expect(TestDestination.simulator("iPhone 15", os: "17.5").specifier == "platform=iOS Simulator,name=iPhone 15,OS=17.5")
    }

    @Test func swiftPackageCommands() {
        #expect(SwiftPackageCommand.build(product: "brewer", packagePath: "Tools").arguments
            == ["swift", "build", "-c", "release", "--product", "brewer"])
        #expect(SwiftPackageCommand.build(product: "brewer", packagePath: "Tools").workingDirectory == "Tools")
        #expect(SwiftPackageCommand.resolve(packagePath: "Tools") == ToolInvocation(["swift", "package", "resolve"], workingDirectory: "Tools"))
        #expect(SwiftPackageCommand.test(packagePath: ".", filter: "BrewTests").arguments == ["swift", "test", "--filter", "BrewTests"])
    }

    @Test func cocoaPodsDecisions() {
        #expect(CocoaPodsPlan.decide(projectDirectory: "App", podfileExists: false, lockfileExists: false)
            == .skip(reason: "no Podfile in App; nothing for CocoaPods to install"))
        #expect(CocoaPodsPlan.decide(projectDirectory: "App", podfileExists: true, lockfileExists: false)
            == .install(ToolInvocation(["pod", "install"], workingDirectory: "App")))
        #expect(CocoaPodsPlan.decide(projectDirectory: "App", podfileExists: true, lockfileExists: true, repoUpdate: true)
            == .install(ToolInvocation(["pod", "install", "--deployment", "--repo-update"], workingDirectory: "App")))
    }

    @Test func defaultFolders() {
        #expect(LanesBuildFolders.derivedData(root: "") == ".lanes/DerivedData")
        #expect(LanesBuildFolders.logs(root: "/ci/brewer/") == "/ci/brewer/.lanes/logs")
        #expect(LanesBuildFolders.results(root: "/ci") == "/ci/.lanes/results")
    }
}

@Suite(.timeLimit(.minutes(10))) struct XcodebuildLocatorTests {
    @Test func findsAStandInOnPathOrSaysWhy() throws {
        let folder = LanesCommandLine.temporaryDirectory("build-xcodebuild").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: BuildError.self) { try XcodebuildLocator.locate(pathVariable: folder) }
        let standIn = folder + "/xcodebuild"
        try AtomicFile.write("#!/bin/sh\nexit 0\n", to: standIn, permissions: 0o755)
        #expect(try XcodebuildLocator.locate(pathVariable: "/nonexistent:" + folder) == standIn)
    }
}
