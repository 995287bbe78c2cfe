import ArgumentParser
import Foundation
import Lanes
import LanesPlatform

/// `lanes new step-package NAME`: a Swift package with one step, tests that run it through lanes,
/// and a README, ready for a Lanefile's `lanes/Package.swift`.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Create something new: lanes new step-package NAME.")

    enum Kind: String, ExpressibleByArgument, CaseIterable { case stepPackage = "step-package" }

    @Argument(help: "What to create: step-package.") var kind: Kind
    @Argument(help: "The package's name in UpperCamelCase, such as SentrySteps.") var name: String
    @Option(help: "The folder to create it in (default: ./NAME).") var directory: String?

    func validate() throws {
        guard let first = name.first, first.isLetter, first.isUppercase,
              name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw ValidationError("NAME must be an UpperCamelCase Swift identifier, such as SentrySteps, not '\(name)'")
        }
    }

    func run() throws {
        let installation = try Installation.locate(environment: ProcessInfo.processInfo.environment)
        let folder = directory ?? FileManager.default.currentDirectoryPath + "/" + name
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw LanesError(.configuration, "\(folder) already exists; lanes new writes only new folders")
        }
        let files = StepPackageTemplate(name: name, modulesDirectory: installation.modulesDirectory,
                                        libraryDirectory: installation.libraryDirectory).files
        for (path, text) in files {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try AtomicFile.write(text, to: full)
        }
        print("Created \(folder): a package with the step \(StepPackageTemplate.stepID(name)). `swift test` in it runs the step through lanes.")
    }
}

/// The files of a new step package. The manifest names no Lanes dependency: lanes builds the package
/// against the installed `Lanes` module (`LANES_PACKAGE_BUILD` is set then); alone (`swift test`), it
/// finds that module where `lanes new` saw it, or at `$LANES_HOME`.
struct StepPackageTemplate {
    let name: String
    let modulesDirectory: String
    let libraryDirectory: String

    static func stepID(_ name: String) -> String {
        var id = ""
        for character in name {
            if character.isUppercase, !id.isEmpty { id += "_" }
            id += character.lowercased()
        }
        return id + "_hello"
    }

    var files: [(String, String)] {
        let id = Self.stepID(name)
        let type = name + "Hello"
        let function = StepDefinition(id: id, summary: "", category: .shell, examples: []).functionName
        return [
            ("Package.swift", """
                // swift-tools-version: 6.0
                import PackageDescription

                // lanes builds this package for a Lanefile against its own Lanes module and sets
                // LANES_PACKAGE_BUILD; built alone (`swift test`), the module is found here.
                let lanesHome = Context.environment["LANES_HOME"]
                let modules = lanesHome.map { $0 + "/Modules" } ?? \(PackageBuilder.literal(modulesDirectory))
                let library = lanesHome ?? \(PackageBuilder.literal(libraryDirectory))
                let standalone = Context.environment["LANES_PACKAGE_BUILD"] == nil

                let package = Package(
                    name: "\(name)",
                    // lanes' modules are built for macOS 15: a target importing Lanes needs at least that.
                    platforms: [.macOS(.v15)],
                    products: [.library(name: "\(name)", targets: ["\(name)"])],
                    targets: [
                        .target(
                            name: "\(name)",
                            swiftSettings: standalone ? [.unsafeFlags(["-I", modules])] : [],
                            linkerSettings: standalone ? [.unsafeFlags(["-L", library, "-lLanes", "-Xlinker", "-rpath", "-Xlinker", library])] : []),
                        .testTarget(name: "\(name)Tests", dependencies: ["\(name)"],
                                    swiftSettings: standalone ? [.unsafeFlags(["-I", modules])] : []),
                    ]
                )

                """),
            ("Sources/\(name)/\(type).swift", """
                import Lanes

                /// A step of this package, declared like lanes' own: a definition and `@StepOption`s.
                public struct \(type): Step {
                    public static let definition = StepDefinition(
                        id: "\(id)", summary: "Greet someone from the \(name) package", category: .shell,
                        examples: [StepExample(swift: #"try await \(function)(name: "release")"#, commandLine: ["name:release"])])

                    @StepOption("name", "Who to greet", env: "\(name.uppercased())_NAME")
                    var name: String

                    public init() {}

                    public func run(in context: StepContext) async throws {
                        context.log.line("Hello, \\(name), from \(name)")
                    }
                }

                /// What a Lanefile calls in a lane.
                public func \(function)(name: String? = nil) async throws {
                    try await runStep(\(type).self, ["name": name])
                }

                /// Every step of this package, for `Lanefile(steps: \(name).steps) { ... }`.
                public let steps: [any Step.Type] = [\(type).self]

                """),
            ("Tests/\(name)Tests/\(name)Tests.swift", """
                import Foundation
                import Testing
                import \(name)

                /// Runs the step through lanes: a Lanefile in a temporary folder depends on this package
                /// by path, and `lanes run` runs the step (set LANES to the lanes binary, else PATH's).
                @Suite struct \(name)Tests {
                    @Test func stepIsDeclared() {
                        #expect(\(type).definition.id == "\(id)")
                    }

                    @Test func lanesRunsTheStep() throws {
                        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                        let project = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\\(UUID().uuidString)").path
                        defer { try? FileManager.default.removeItem(atPath: project) }
                        try FileManager.default.createDirectory(atPath: project + "/lanes", withIntermediateDirectories: true)
                        try #\"""
                            import Lanes
                            import \(name)

                            let lanes = Lanefile(steps: \(name).steps) {
                                Lane("greet", "Greets") { _ in try await \(function)(name: "tests") }
                            }

                            \"""#.write(toFile: project + "/Lanefile.swift", atomically: true, encoding: .utf8)
                        try \"""
                            // swift-tools-version: 6.0
                            import PackageDescription
                            let package = Package(name: "Lanefile", platforms: [.macOS(.v15)], dependencies: [.package(path: "\\(package)")])

                            \""".write(toFile: project + "/lanes/Package.swift", atomically: true, encoding: .utf8)
                        let lanes = ProcessInfo.processInfo.environment["LANES"] ?? "lanes"
                        let process = Process()
                        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                        process.arguments = [lanes, "run", "\(id)", "name:tests"]
                        process.currentDirectoryURL = URL(fileURLWithPath: project)
                        let output = Pipe()
                        process.standardOutput = output
                        process.standardError = output
                        try process.run()
                        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                        process.waitUntilExit()
                        #expect(process.terminationStatus == 0, "\\(text)")
                        #expect(text.contains("Hello, tests, from \(name)"), "\\(text)")
                    }
                }

                """),
            ("README.md", """
                # \(name)

                Steps for lanes Lanefiles. Generated by `lanes new step-package \(name)`.

                ## Use it in a Lanefile

                In `lanes/Package.swift` beside your `Lanefile.swift`:

                ```swift
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Lanefile", platforms: [.macOS(.v15)], dependencies: [
                    .package(url: "https://git.example.com/ios/\(name).git", from: "1.0.0"),
                ])
                ```

                In `Lanefile.swift`:

                ```swift
                import Lanes
                import \(name)

                let lanes = Lanefile(steps: \(name).steps) {
                    Lane("greet", "Greets") { _ in try await \(function)(name: "release") }
                }
                ```

                `lanes actions` lists `\(id)` with its package; `lanes run \(id) name:release` runs it.

                ## Develop

                `swift test` builds the package against the Lanes module `lanes new` found, and runs the
                step through `lanes run` (set `LANES` to the lanes binary when it is not on PATH). Tag a
                version (`git tag 1.0.0`) to share it; Lanefiles pin it in `lanes/Package.resolved`.

                """),
        ]
    }
}
