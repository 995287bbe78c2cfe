import LanesBuild
internal import Foundation
internal import LanesPlatform

/// `swiftlint`: lint (or fix) Swift sources with SwiftLint.
public struct SwiftLint: Step {
    public static let definition = StepDefinition(
        id: "swiftlint",
        summary: "Run SwiftLint (lint or fix); fails on violations that SwiftLint reports as errors (all of them with strict)",
        category: .test,
        examples: [StepExample(swift: #"try await swiftlint(strict: true, configFile: ".swiftlint.yml")"#,
                               commandLine: ["strict:true", "config_file:.swiftlint.yml"])]
    )

    @StepOption("mode", "lint, fix or analyze", default: .lint)
    var mode: SwiftLintMode
    @StepOption("strict", "Fail on warnings too", default: false)
    var strict: Bool
    @StepOption("config_file", "The configuration file (.swiftlint.yml)")
    var configFile: String?
    @StepOption("path", "The folder or file to lint (default: the Lanefile's folder)")
    var path: String?
    @StepOption("executable", "The swiftlint program", default: "swiftlint")
    var executable: String

    public init() {}

    public func run(in context: StepContext) async throws {
        // fastlane's option check: a path to lint that does not exist stops the action before swiftlint runs.
        if let path, !FilePath.exists(context.resolve(path)) {
            throw LanesError(.configuration, "swiftlint: couldn't find path '\(context.resolve(path))'",
                             hint: "path is relative to the Lanefile's folder")
        }
        let program = try context.requireTool(executable, step: "swiftlint", hint: "brew install swiftlint, or give executable:PATH")
        var arguments = [program, mode.rawValue]
        if strict { arguments.append("--strict") }
        if let configFile { arguments += ["--config", context.resolve(configFile)] }
        if let path { arguments.append(context.resolve(path)) }
        try await context.runTool(arguments, label: "swiftlint", tool: "swiftlint \(mode.rawValue)")
    }
}

/// `carthage`: fetch and build Carthage dependencies.
public struct Carthage: Step {
    public static let definition = StepDefinition(
        id: "carthage",
        summary: "Run Carthage (bootstrap, update or build), as xcframeworks by default",
        category: .build,
        examples: [StepExample(swift: #"try await carthage(command: .bootstrap, platform: "iOS", cacheBuilds: true)"#,
                               commandLine: ["command:bootstrap", "platform:iOS", "cache_builds:true"])]
    )

    @StepOption("command", "bootstrap, update, build or checkout", default: .bootstrap)
    var command: CarthageCommand
    @StepOption("platform", "Platforms to build, comma-separated (iOS,macOS)")
    var platform: String?
    @StepOption("use_xcframeworks", "Build xcframeworks", default: true)
    var useXCFrameworks: Bool
    @StepOption("cache_builds", "Reuse builds whose version did not change", default: false)
    var cacheBuilds: Bool
    @StepOption("project_directory", "The folder holding the Cartfile", default: ".")
    var projectDirectory: String

    public init() {}

    public func run(in context: StepContext) async throws {
        let program = try context.requireTool("carthage", step: "carthage", hint: "brew install carthage")
        var arguments = [program, command.rawValue]
        if let platform, command != .checkout { arguments += ["--platform", platform] }
        if useXCFrameworks, command != .checkout { arguments.append("--use-xcframeworks") }
        if cacheBuilds { arguments.append("--cache-builds") }
        arguments += ["--project-directory", context.resolve(projectDirectory)]
        try await context.runTool(arguments, label: "carthage", tool: "carthage \(command.rawValue)")
    }
}

/// `xcodes`: choose the installed Xcode by version for the rest of the lane (DEVELOPER_DIR).
public struct Xcodes: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "xcodes",
        summary: "Select an installed Xcode by version for the rest of the lane (sets DEVELOPER_DIR); returns its Developer folder",
        category: .build,
        examples: [StepExample(swift: #"try await xcodes(version: "16.2")"#, commandLine: ["version:16.2"])]
    )

    @StepOption("version", "The Xcode version: 16.2 matches 16.2 and 16.2.x; 16 the newest 16.x", env: "LANES_XCODE_VERSION")
    var version: String
    @StepOption("applications_directory", "Where the Xcode apps are", default: "/Applications")
    var applicationsDirectory: String

    public init() {}

    public var banner: String { "Select Xcode \(version)" }

    public func run(in context: StepContext) async throws -> String {
        let folder = context.resolve(applicationsDirectory)
        var found: [(version: String, path: String)] = []
        for name in FilePath.entries(of: folder) where name.hasPrefix("Xcode") && name.hasSuffix(".app") {
            let app = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: app + "/Contents/version.plist"),
                  let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let installed = plist["CFBundleShortVersionString"] as? String else { continue }
            found.append((installed, app))
        }
        let wanted = version.split(separator: ".")
        let matching = found.filter { Array($0.version.split(separator: ".").prefix(wanted.count)) == wanted }
        guard let chosen = matching.max(by: { VersionOrder.isOlder($0.version, than: $1.version) }) else {
            throw LanesError(.environment, "xcodes: no Xcode \(version) in \(folder)"
                                + (found.isEmpty ? " (no Xcode at all: Xcode exists only on macOS)" : " (installed: \(found.map(\.version).sorted().joined(separator: ", ")))"),
                             hint: "xcodes install \(version), or give applications_directory")
        }
        let developer = chosen.path + "/Contents/Developer"
        var additions = context.values[LaneEnvironmentAdditions.self] ?? [:]
        additions["DEVELOPER_DIR"] = developer
        context.values[LaneEnvironmentAdditions.self] = additions
        context.log.line("Xcode \(chosen.version): DEVELOPER_DIR=\(developer) for the rest of the lane")
        return developer
    }
}

/// Version strings compared number by number (`16.10` is newer than `16.9`).
enum VersionOrder {
    static func isOlder(_ left: String, than right: String) -> Bool {
        let a = left.split(separator: ".").map { Int($0) ?? 0 }, b = right.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0, y = index < b.count ? b[index] : 0
            if x != y { return x < y }
        }
        return false
    }
}

/// `zip`: a folder (an .app, a dSYM, a build output) zipped with its name as the root.
public struct Zip: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "zip",
        summary: "Zip a folder (its name as the archive's root), atomically; returns the zip's path",
        category: .build,
        examples: [StepExample(swift: #"try await zip(path: "build/Meow.app", outputPath: "build/Meow.zip")"#,
                               commandLine: ["path:build/Meow.app", "output_path:build/Meow.zip"])]
    )

    @StepOption("path", "The folder to zip")
    var path: String
    @StepOption("output_path", "The zip to write (default: PATH.zip)")
    var outputPath: String?

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        let folder = context.resolve(path).trimmingSuffix("/")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LanesError(.configuration, "zip: \(folder) is not a folder")
        }
        let destination = outputPath.map(context.resolve) ?? folder + ".zip"
        try ZipWriter.zip(folder: folder, rootName: FilePath.name(of: folder), to: destination)
        context.log.line("zipped \(folder) into \(destination)")
        return destination
    }
}

/// `clear_derived_data`: removes the DerivedData folder build_app and run_tests use.
public struct ClearDerivedData: Step {
    public static let definition = StepDefinition(
        id: "clear_derived_data",
        summary: "Delete the DerivedData folder (lanes' .lanes/DerivedData unless given)",
        category: .build,
        examples: [StepExample(swift: "try await clearDerivedData()", commandLine: [])]
    )

    @StepOption("derived_data_path", "The folder (default .lanes/DerivedData)")
    var derivedDataPath: String?

    public init() {}

    public func run(in context: StepContext) async throws {
        let folder = derivedDataPath.map(context.resolve) ?? LanesBuildFolders.derivedData(root: context.projectDirectory)
        FilePath.removeTree(folder)
        context.log.line("removed \(folder)")
    }
}

/// `clean_build_artifacts`: removes what build_app left in this lane (product, dSYM zip, archive).
public struct CleanBuildArtifacts: Step {
    public static let definition = StepDefinition(
        id: "clean_build_artifacts",
        summary: "Delete the .ipa/.pkg/.app, dSYM zip and archive build_app made in this lane, and .lanes/build",
        category: .build,
        examples: [StepExample(swift: "try await cleanBuildArtifacts()", commandLine: [])]
    )

    public init() {}

    public func run(in context: StepContext) async throws {
        let built = context.values[BuiltAppValue.self]
        let paths = [built?.path, built?.dSYMZipPath, built?.archivePath].compactMap { $0 }
            + [LanesBuildFolders.build(root: context.projectDirectory)]
        for path in paths where FilePath.exists(path) {
            FilePath.removeTree(path)
            context.log.line("removed \(path)")
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.count > 1, text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}

/// What SwiftLint does.
public enum SwiftLintMode: String, Sendable, CaseIterable, OptionValue { case lint, fix, analyze }

/// The Carthage command `carthage` runs.
public enum CarthageCommand: String, Sendable, CaseIterable, OptionValue { case bootstrap, update, build, checkout }
