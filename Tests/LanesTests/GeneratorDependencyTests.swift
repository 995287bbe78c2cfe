import Foundation
import LanesTestSupport
import Testing

/// The generator never links the module it writes into: `StepCodegen` and `LanesCodegen` reach
/// `LanesRuntime` and never `Lanes`, so `make generate` builds while the generated file still names
/// a step that is gone. Read from SwiftPM's own description of the manifest (`dump-package`).
@Suite(.timeLimit(.minutes(3))) struct GeneratorDependencyTests {
    /// Target name to the targets it depends on, from `swift package dump-package`.
    static func targetDependencies() async throws -> [String: [String]] {
        // A scratch folder of its own: the test run holds the package's .build lock.
        let scratch = LanesCommandLine.temporaryDirectory("dump-package")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try await Program.run(["swift", "package", "--scratch-path", scratch.path, "dump-package"],
                                         in: LanesCommandLine.repositoryRoot.path)
        try #require(dump.status == 0, "swift package dump-package failed: \(dump.standardError)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            // Each dependency is {"byName": [NAME, condition]}, {"target": [...]} or {"product": [...]}.
            dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        return dependencies
    }

    static func reached(from start: String, in dependencies: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], queue = [start]
        while let next = queue.popLast() {
            for dependency in dependencies[next] ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
        }
        return seen
    }

    @Test func theGeneratorReachesTheRuntimeAndNeverLanes() async throws {
        let dependencies = try await Self.targetDependencies()
        for generator in ["StepCodegen", "LanesCodegen"] {
            let reached = Self.reached(from: generator, in: dependencies)
            #expect(reached.contains("LanesRuntime"), "\(generator): \(reached.sorted())")
            #expect(!reached.contains("Lanes"), "\(generator) links Lanes, the module it generates into")
        }
        #expect(Self.reached(from: "Lanes", in: dependencies).contains("LanesRuntime"))
    }
}
