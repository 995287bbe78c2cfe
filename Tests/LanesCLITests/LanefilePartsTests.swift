import LanesTestSupport
import Foundation
import Testing

/// A Lanefile in several files: `Lanefile.swift` and `lanes/*.swift` compile together, errors point at
/// the right file, and editing, adding or renaming any of them compiles again.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct LanefilePartsTests {
    private func write(_ text: String, _ path: String, in project: URL) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func lanesHelpersAndConfigurationsLiveInAnyFile() async throws {
        let project = LanesCommandLine.temporaryDirectory("parts")
        try write("""
            import Lanes

            let lanes = Lanefile {
                greet
                Lane("shout", "Shouts") { _ in try await sh("echo", loud(greeting)) }
            }

            """, "Lanefile.swift", in: project)
        try write("""
            import Lanes

            let greet = Lane("greet", "Greets") { _ in try await sh("echo", greeting) }

            """, "lanes/Greet.swift", in: project)
        try write("let greeting = \"hello from helpers\"\nfunc loud(_ text: String) -> String { text.uppercased() }\n",
                  "lanes/Helpers.swift", in: project)
        let lanes = LanesCommandLine()
        let greet = try await lanes.run(["greet"], in: project)
        #expect(greet.status == 0, "\(greet.output)")
        #expect(greet.standardOutput.contains("hello from helpers"))
        let shout = try await lanes.run(["shout"], in: project)
        #expect(shout.standardOutput.contains("HELLO FROM HELPERS"), "\(shout.output)")
        #expect(!shout.standardError.contains("Compiling"))

        // An edit of a helper file compiles again and takes effect.
        try write("let greeting = \"edited helper\"\nfunc loud(_ text: String) -> String { text.uppercased() }\n",
                  "lanes/Helpers.swift", in: project)
        let edited = try await lanes.run(["greet"], in: project)
        #expect(edited.standardError.contains("Compiling"))
        #expect(edited.standardOutput.contains("edited helper"), "\(edited.output)")

        // Renaming a file (same content) is a new key too: file names are part of it.
        try FileManager.default.moveItem(at: project.appendingPathComponent("lanes/Greet.swift"),
                                         to: project.appendingPathComponent("lanes/Lanes.swift"))
        let renamed = try await lanes.run(["greet"], in: project)
        #expect(renamed.status == 0)
        #expect(renamed.standardError.contains("Compiling"))
        let again = try await lanes.run(["greet"], in: project)
        #expect(!again.standardError.contains("Compiling"))
    }

    @Test func anErrorInAPartNamesThatFileAndLine() async throws {
        let project = LanesCommandLine.temporaryDirectory("parts-error")
        try write("import Lanes\n\nlet lanes = Lanefile { broken }\n", "Lanefile.swift", in: project)
        try write("import Lanes\n\nlet count: Int = \"three\"\nlet broken = Lane(\"b\", \"B\") { _ in }\n", "lanes/Broken.swift", in: project)
        let result = try await LanesCommandLine().run(["b"], in: project)
        #expect(result.status == 65)
        #expect(result.standardError.contains("lanes/Broken.swift:3:"), "\(result.standardError)")
    }
}
