import LanesTestSupport
import Foundation
import Testing

/// Steps from Swift packages: a Lanefile depends on a local package and on a git repository at a
/// tagged version (a bare repository made here) through `lanes/Package.swift`; lanes builds them once
/// with SwiftPM and links them into the runner. One project serves every check, since each SwiftPM
/// build costs tens of seconds.
@Suite(.timeLimit(.minutes(10)), .tags(.live), .serialized) struct PackageStepsTests {
    static func stepPackage(_ name: String, id: String, function: String, at folder: URL, extra: String = "") async throws {
        let files = [
            "Package.swift": """
                // swift-tools-version: 5.9
                import PackageDescription
                let package = Package(name: "\(name)", products: [.library(name: "\(name)", targets: ["\(name)"])],
                                      targets: [.target(name: "\(name)")])

                """,
            "Sources/\(name)/Steps.swift": """
                import Lanes

                public struct Greet: Step {
                    public static let definition = StepDefinition(id: "\(id)", summary: "Greet from \(name)", category: .shell, examples: [])
                    @StepOption("name", "Who to greet", env: "\(name.uppercased())_NAME")
                    var name: String
                    @StepOption("token", "A token it must not print", env: "\(name.uppercased())_TOKEN", secret: true)
                    var token: String?
                    public init() {}
                    public func run(in context: StepContext) async throws {
                        context.log.line("\(name) greets \\(name)\(extra) token=\\(token ?? "none")")
                    }
                }

                public func \(function)(name: String) async throws { try await runStep(Greet.self, ["name": name]) }
                public let steps: [any Step.Type] = [Greet.self]

                """,
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    static func git(_ arguments: [String], in folder: URL) async throws {
        let result = try await Program.streams(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"] + arguments,
                                    in: folder.path)
        try #require(result.status == 0, "git \(arguments): \(result.error)")
    }

    /// A bare repository holding GitSteps at the tag 1.0.0.
    static func taggedRepository(in root: URL) async throws -> URL {
        let work = root.appendingPathComponent("GitSteps")
        try await stepPackage("GitSteps", id: "git_greet", function: "gitGreet", at: work)
        try await git(["init", "-q"], in: work)
        try await git(["add", "."], in: work)
        try await git(["commit", "-q", "-m", "GitSteps 1.0.0"], in: work)
        try await git(["tag", "1.0.0"], in: work)
        let bare = root.appendingPathComponent("GitSteps.git")
        try await git(["clone", "-q", "--bare", work.path, bare.path], in: root)
        return bare
    }

    static func project(root: URL, bare: URL, requirement: String = "from: \"1.0.0\"") async throws -> URL {
        let project = root.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("lanes"), withIntermediateDirectories: true)
        try """
            import Lanes
            import GitSteps
            import LocalSteps
            import TemplateSteps

            let lanes = Lanefile(steps: LocalSteps.steps + GitSteps.steps + TemplateSteps.steps) {
                Lane("both", "Greets from both packages") { _ in
                    try await localGreet(name: "lane")
                    try await gitGreet(name: "lane")
                    try await templateStepsHello(name: "lane")
                }
            }

            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        try manifest(bare: bare, requirement: requirement).write(to: project.appendingPathComponent("lanes/Package.swift"), atomically: true, encoding: .utf8)
        return project
    }

    static func manifest(bare: URL, requirement: String) -> String {
        """
        // swift-tools-version: 5.9
        import PackageDescription

        let package = Package(
            name: "Lanefile",
            dependencies: [
                .package(path: "../../LocalSteps"),
                .package(url: "file://\(bare.path)", \(requirement)),
                .package(path: "../../TemplateSteps"),
            ]
        )

        """
    }

    @Test func stepsFromALocalAndATaggedGitPackageRunAreListedAndRebuildOnlyOnChange() async throws {
        let root = LanesCommandLine.temporaryDirectory("packages")
        try await Self.stepPackage("LocalSteps", id: "local_greet", function: "localGreet", at: root.appendingPathComponent("LocalSteps"))
        let bare = try await Self.taggedRepository(in: root)
        let project = try await Self.project(root: root, bare: bare)
        let lanes = LanesCommandLine()
        // The package `lanes new step-package` writes builds as a dependency as it is.
        let template = try await lanes.run(["new", "step-package", "TemplateSteps", "--directory", root.appendingPathComponent("TemplateSteps").path], in: root)
        #expect(template.status == 0, "\(template.output)")
        for file in ["Package.swift", "README.md", "Sources/TemplateSteps/TemplateStepsHello.swift", "Tests/TemplateStepsTests/TemplateStepsTests.swift"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("TemplateSteps/" + file).path), "\(file)")
        }

        let first = try await lanes.run(["both"], in: project, extraEnvironment: ["LOCALSTEPS_TOKEN": "canary-secret-4417"])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.standardError.contains("Resolving and building the packages"))
        #expect(first.output.contains("LocalSteps greets lane"), "\(first.output)")
        #expect(first.output.contains("GitSteps greets lane"))
        #expect(first.output.contains("Hello, lane, from TemplateSteps"))
        // A package's secret option is redacted like lanes' own.
        #expect(!first.output.contains("canary-secret-4417"))
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("lanes/Package.resolved").path))

        let warm = try await lanes.run(["both"], in: project)
        #expect(warm.status == 0)
        #expect(!warm.standardError.contains("Compiling") && !warm.standardError.contains("Resolving"), "\(warm.standardError)")

        // `lanes actions --json` lists them with their package; `lanes run` runs one.
        let actions = try await lanes.run(["actions", "--json"], in: project)
        #expect(actions.status == 0, "\(actions.output)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(actions.standardOutput.utf8)) as? [[String: Any]])
        let local = try #require(list.first { $0["id"] as? String == "local_greet" })
        #expect(local["package"] as? String == "LocalSteps")
        #expect(list.first { $0["id"] as? String == "git_greet" }?["package"] as? String == "GitSteps")
        #expect(list.first { $0["id"] as? String == "sh" }?["package"] == nil)
        let text = try await lanes.run(["actions"], in: project)
        #expect(text.standardOutput.contains("git_greet") && text.standardOutput.contains("(GitSteps)"), "\(text.output)")
        let run = try await lanes.run(["run", "git_greet", "name:cli"], in: project)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("GitSteps greets cli"))
        let unknown = try await lanes.run(["run", "no_such_step"], in: project)
        #expect(unknown.status != 0)

        // An edit of the local package builds again; the lane sees it.
        let source = root.appendingPathComponent("LocalSteps/Sources/LocalSteps/Steps.swift")
        try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "greets", with: "now greets")
            .write(to: source, atomically: true, encoding: .utf8)
        let edited = try await lanes.run(["both"], in: project)
        #expect(edited.status == 0, "\(edited.output)")
        #expect(edited.standardError.contains("Resolving and building the packages"))
        #expect(edited.output.contains("LocalSteps now greets lane"))

        // A package that does not build: 78, naming it and its manifest line; fixing it needs no build.
        let working = try String(contentsOf: source, encoding: .utf8)
        try (working + "\nlet broken: Int = \"text\"\n").write(to: source, atomically: true, encoding: .utf8)
        let broken = try await lanes.run(["both"], in: project)
        #expect(broken.status == 78, "\(broken.output)")
        #expect(broken.standardError.contains("lanes/Package.swift:7: the package localsteps"), "\(broken.standardError)")
        try working.write(to: source, atomically: true, encoding: .utf8)
        let fixed = try await lanes.run(["both"], in: project)
        #expect(fixed.status == 0, "\(fixed.output)")
        #expect(!fixed.standardError.contains("Resolving"), "\(fixed.standardError)")

        // A version that does not exist: one message naming the package and the manifest line, 78,
        // and the previous build still serves once the manifest is back.
        let manifest = project.appendingPathComponent("lanes/Package.swift")
        let good = try String(contentsOf: manifest, encoding: .utf8)
        try Self.manifest(bare: bare, requirement: "from: \"7.0.0\"").write(to: manifest, atomically: true, encoding: .utf8)
        let missing = try await lanes.run(["both"], in: project)
        #expect(missing.status == 78, "\(missing.output)")
        #expect(missing.standardError.contains("lanes/Package.swift:8"), "\(missing.standardError)")
        #expect(missing.standardError.contains("gitsteps"), "\(missing.standardError)")
        try good.write(to: manifest, atomically: true, encoding: .utf8)
        let restored = try await lanes.run(["both"], in: project)
        #expect(restored.status == 0, "\(restored.output)")
        #expect(!restored.standardError.contains("Resolving"), "\(restored.standardError)")

        // A new version: tag 1.1.0 upstream; `lanes packages update` takes it, builds and pins it.
        let work = root.appendingPathComponent("GitSteps")
        let gitSource = work.appendingPathComponent("Sources/GitSteps/Steps.swift")
        try String(contentsOf: gitSource, encoding: .utf8).replacingOccurrences(of: "greets", with: "1.1 greets")
            .write(to: gitSource, atomically: true, encoding: .utf8)
        try await Self.git(["commit", "-q", "-am", "GitSteps 1.1.0"], in: work)
        try await Self.git(["tag", "1.1.0"], in: work)
        try await Self.git(["push", "-q", bare.path, "HEAD:main", "1.1.0"], in: work)
        let pinned = try await lanes.run(["both"], in: project)
        #expect(pinned.output.contains("GitSteps greets lane") && !pinned.standardError.contains("Resolving"), "\(pinned.output)")
        let update = try await lanes.run(["packages", "update"], in: project)
        #expect(update.status == 0, "\(update.output)")
        #expect(update.standardOutput.contains("gitsteps 1.0.0 -> 1.1.0"), "\(update.output)")
        let upgraded = try await lanes.run(["both"], in: project)
        #expect(upgraded.status == 0, "\(upgraded.output)")
        #expect(!upgraded.standardError.contains("Resolving"))
        #expect(upgraded.output.contains("GitSteps 1.1 greets lane"), "\(upgraded.output)")
        let pins = try String(contentsOf: project.appendingPathComponent("lanes/Package.resolved"), encoding: .utf8)
        #expect(pins.contains("\"1.1.0\""), "\(pins)")

        // Two steps with one id: 78, naming both modules and the line that registers them.
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        try String(contentsOf: lanefile, encoding: .utf8)
            .replacingOccurrences(of: "TemplateSteps.steps", with: "TemplateSteps.steps + [Twin.self]")
            .appending("""
                struct Twin: Step {
                    static let definition = StepDefinition(id: "git_greet", summary: "Same id", category: .shell, examples: [])
                    init() {}
                    func run(in context: StepContext) async throws {}
                }

                """).write(to: lanefile, atomically: true, encoding: .utf8)
        let twins = try await lanes.run(["both"], in: project)
        #expect(twins.status == 78, "\(twins.output)")
        #expect(twins.standardError.contains("line 6") && twins.standardError.contains("GitSteps"), "\(twins.standardError)")
        #expect(!twins.standardError.contains("Resolving"))
    }
}
