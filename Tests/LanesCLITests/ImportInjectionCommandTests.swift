import Foundation
import LanesTestSupport
import Testing

/// Issue 31: an imported Fastfile never runs code, neither during the import (which type-checks the
/// Lanefile and runs nothing) nor at `lanes list`, nor when its lanes run. The Fastfile below is of
/// this project's making: it tries each injection the audit found, each of which would create a
/// `pwned-N` file in the project if any of its text ran as code.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ImportInjectionCommandTests {
    let lanes = LanesCommandLine()

    static func hostileFastfile(marker folder: String) -> String {
        func touch(_ number: Int) -> String { #"FileManager.default.createFile(atPath: "\#(folder)/pwned-\#(number)", contents: nil)"# }
        var lines: [String] = []
        // 1. An options key that is a Swift interpolation inside the option's description.
        lines.append("lane :keys do |options|")
        lines.append("  puts options['k\\(\(touch(1)) ? \"\" : \"\")']")
        lines.append("  puts 'keys done' if File.exist?('Fastfile')")
        lines.append("end")
        // 2. A line end in a platform name, which named the hook in a `//` comment.
        lines.append("platform \"ios\n_ = \(touch(2).replacing("\"", with: "\\\""))\n\" do")
        lines.append("  before_all do")
        lines.append("    puts 'before'")
        lines.append("  end")
        lines.append("end")
        // 3. A line end in a top-level ENV name: file-scope lines.
        lines.append("ENV[\"A\nimport Glibc\nlet pwned3 = system(\\\"touch \(folder)/pwned-3\\\")\n\"] = \"v\"")
        // 4. A lone CR in a statement that becomes a TODO: the rest of the line was Swift code of the lane.
        lines.append("lane :carriage do")
        lines.append("  x = 'a' =~ /b/ # \r_ = try await sh(\"touch\", \"\(folder)/pwned-4\")")
        lines.append("  puts 'carriage done'")
        lines.append("end")
        // 5. A CRLF statement over several lines that becomes a TODO: every line stays a comment.
        lines.append("lane :windows do\r\n  y = [1,\r\n    2].map { |n| n * 2 }\r\n  puts 'windows done'\r\nend")
        // 6. A line end in a Dir.chdir folder, quoted in a comment.
        lines.append("lane :chdir do")
        lines.append("  Dir.chdir(\"..\\n_ = try await sh(\\\"touch\\\", \\\"\(folder)/pwned-6\\\")\\n\") do")
        lines.append("    sh 'true'")
        lines.append("  end")
        lines.append("end")
        // 7. 700 strings joined by `+`: the importer crashed.
        lines.append("lane :long do")
        lines.append("  message = " + (0 ..< 700).map { "\"s\($0)\"" }.joined(separator: " + "))
        lines.append("  puts message")
        lines.append("end")
        // 8. Literal credentials for a plugin: never on a command line, in no file.
        lines.append("lane :plugin do")
        lines.append("  some_plugin_upload(api_token: \"Canary-Api-Token-31a\", password: \"Canary-Password-31b\")")
        lines.append("end")
        // 9. A top-level secret: never printed.
        lines.append("ENV[\"MATCH_PASSWORD\"] = \"Canary-Match-Password-31c\"")
        // 10. U+2028 and NEL end lines for an editor only: what follows them is not translated.
        lines.append("lane :separators do")
        lines.append("  puts 'a' # \u{2028}sh(\"touch\", \"\(folder)/pwned-10\")\u{85}sh(\"touch\", \"\(folder)/pwned-10\")")
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    static let canaries = ["Canary-Api-Token-31a", "Canary-Password-31b", "Canary-Match-Password-31c"]

    func project() throws -> URL {
        let project = LanesCommandLine.temporaryDirectory("import-hostile")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("fastlane"), withIntermediateDirectories: true)
        try Data(Self.hostileFastfile(marker: project.path).utf8).write(to: project.appendingPathComponent("fastlane/Fastfile"))
        return project
    }

    func pwned(in project: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: project.path)) ?? []).filter { $0.hasPrefix("pwned-") }.sorted()
    }

    /// Every file under `folder` that holds one of the canaries.
    func filesHoldingCanaries(_ folder: URL) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard let data = try? Data(contentsOf: url) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for canary in Self.canaries where text.contains(canary) && url.lastPathComponent != "Fastfile" { found.append(url.path) }
        }
        return found
    }

    @Test func hostileFastfileIsImportedListedAndRunWithoutRunningItsText() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project) }
        let imported = try await lanes.run(["import", "fastlane", "--report", "import.md"], in: project)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.standardOutput.contains("it compiles"), "\(imported.output)")
        for canary in Self.canaries { #expect(!imported.output.contains(canary)) }
        #expect(pwned(in: project) == [])

        let listed = try await lanes.run(["list"], in: project)
        #expect(listed.status == 0, "\(listed.output)")
        for name in ["keys", "carriage", "windows", "chdir", "long", "plugin", "separators"] { #expect(listed.standardOutput.contains(name), "\(name): \(listed.output)") }
        let json = try await lanes.run(["list", "--json"], in: project)
        #expect(json.status == 0, "\(json.output)")
        #expect(pwned(in: project) == [])

        // Each lane runs, or stops at the TODO the Fastfile's hostile text became; none runs that text.
        for lane in ["keys", "carriage", "windows", "chdir", "long", "separators"] {
            let run = try await lanes.run([lane], in: project)
            for canary in Self.canaries { #expect(!run.output.contains(canary)) }
            if ["carriage", "windows", "separators"].contains(lane) {
                #expect(run.status == 1, "\(lane) should stop at its TODO: \(run.output)")
                #expect(run.output.contains("was not imported"), "\(run.output)")
            } else if lane == "chdir" {
                // As in Ruby, a folder that does not exist fails the block's command (it cannot start: 78).
                #expect(run.status == 78 && run.output.contains("cannot run"), "\(run.output)")
            } else {
                #expect(run.status == 0, "\(lane): \(run.output)")
            }
        }
        #expect(pwned(in: project) == [])
        #expect(filesHoldingCanaries(project) == [])
    }

    @Test func importTypeChecksAndBuildsNoRunner() async throws {
        let project = LanesCommandLine.temporaryDirectory("import-typecheck")
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.createDirectory(at: project.appendingPathComponent("fastlane"), withIntermediateDirectories: true)
        try Data("lane :beta do\n  puts 'hello'\nend\n".utf8).write(to: project.appendingPathComponent("fastlane/Fastfile"))
        let imported = try await lanes.run(["import", "fastlane"], in: project)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.standardOutput.contains("it compiles"), "\(imported.output)")
        // Checked, not built: no runner exists until a lane is run.
        let runners = lanes.cacheDirectory.appendingPathComponent("runners")
        let built = ((try? FileManager.default.contentsOfDirectory(atPath: runners.path)) ?? []).filter { !$0.hasPrefix(".") }
        #expect(built == [], "the import built a runner: \(built)")

        // A Lanefile that does not type-check is reported with the compiler's error, and the import fails.
        try FileManager.default.createDirectory(at: project.appendingPathComponent("lanes"), withIntermediateDirectories: true)
        try Data("let broken: Int = \"text\"\n".utf8).write(to: project.appendingPathComponent("lanes/Broken.swift"))
        let failed = try await lanes.run(["import", "fastlane", "--force"], in: project)
        #expect(failed.status == 65, "\(failed.output)")
        #expect(failed.output.contains("does not compile"), "\(failed.output)")
    }
}
