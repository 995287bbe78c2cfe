import LanesTestSupport
import Foundation
import Testing
@testable import LanesCLI

/// `lanes completion bash|zsh|fish`, exercised in the real shells: subcommands (from the argument
/// parser's tree), step ids, lane flags, and lane names from the cached runner only.
@Suite struct CompletionTests {
    let lanes = LanesProcess()

    static func installed(_ shell: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") }

    /// A project whose runner is compiled, a script for `shell`, and PATH leading to this build's lanes.
    func prepare(_ shell: String) throws -> (project: URL, script: URL, environment: [String: String]) {
        let project = try LanesProcess.project("described")
        #expect(try lanes.run(["list"], in: project).status == 0)
        let generated = try lanes.run(["completion", shell], in: project)
        #expect(generated.status == 0)
        let script = project.appendingPathComponent("completion.\(shell)")
        try generated.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        let bin = URL(fileURLWithPath: try LanesProcess.executable).deletingLastPathComponent().path
        return (project, script, ["PATH": bin + ":" + (lanes.environment["PATH"] ?? "/usr/bin:/bin")])
    }

    func shell(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = directory
        process.environment = lanes.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The words bash offers for a command line whose last word is being completed.
    func bashCompletions(_ words: [String], script: URL, project: URL, environment: [String: String]) throws -> Set<String> {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _lanes_with_lanes lanes "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try shell(["/bin/bash", "-c", program], in: project, environment: environment)
        return Set(output.split(separator: "\n").map(String.init))
    }

    @Test func bashCompletesSubcommandsLanesStepsAndFlags() throws {
        let (project, script, environment) = try prepare("bash")
        let first = try bashCompletions(["lanes", ""], script: script, project: project, environment: environment)
        let subcommands = Set(LanesCommand.configuration.subcommands.map { $0._commandName })
        #expect(subcommands.isSubset(of: first))
        #expect(Set(["deploy", "nightly", "greet", "list"]).isSubset(of: first))
        #expect(try bashCompletions(["lanes", "ni"], script: script, project: project, environment: environment) == ["nightly"])
        #expect(try bashCompletions(["lanes", "run", "import_"], script: script, project: project, environment: environment)
            == ["import_certificate"])
        #expect(try bashCompletions(["lanes", "deploy", "--j"], script: script, project: project, environment: environment)
            == ["--json", "--junit"])
        #expect(try bashCompletions(["lanes", "cron", "ne"], script: script, project: project, environment: environment) == ["next"])
    }

    @Test(.enabled(if: installed("fish"), "fish is not installed (make test-deps installs it)"))
    func fishCompletesLanesAndSteps() throws {
        let (project, script, environment) = try prepare("fish")
        func complete(_ line: String) throws -> Set<String> {
            let output = try shell(["/usr/bin/fish", "--no-config", "-c", "source '\(script.path)'; complete -C'\(line)'"],
                                   in: project, environment: environment)
            return Set(output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        }
        #expect(Set(["deploy", "nightly", "greet", "list", "cron", "env", "completion"]).isSubset(of: try complete("lanes ")))
        #expect(try complete("lanes run import_") == ["import_certificate"])
        #expect(try complete("lanes deploy --js") == ["--json"])
    }

    @Test(.enabled(if: installed("zsh"), "zsh is not installed (make test-deps installs it)"))
    func zshScriptLoadsAndRegistersItsFunction() throws {
        let (project, script, environment) = try prepare("zsh")
        let output = try shell(["/usr/bin/zsh", "-f", "-c",
                                "autoload -U compinit; compinit -u -D; source '\(script.path)'; print -r -- $_comps[lanes]"],
                               in: project, environment: environment)
        #expect(output == "_lanes_with_lanes\n")
    }

    @Test func laneNamesComeOnlyFromACompiledRunner() throws {
        let project = try LanesProcess.project("described")
        let cold = try lanes.run(["__complete-lanes"], in: project)
        #expect(cold.status == 0)
        #expect(cold.output.isEmpty)
        #expect(try lanes.run(["list"], in: project).status == 0)
        #expect(try lanes.run(["__complete-lanes"], in: project).standardOutput == "deploy\nnightly\ngreet\n")
        let elsewhere = try lanes.run(["__complete-lanes"], in: LanesProcess.temporaryDirectory("nolanes"))
        #expect(elsewhere.status == 0 && elsewhere.output.isEmpty)
    }

    @Test func unknownShellIsAUsageError() throws {
        let result = try lanes.run(["completion", "tcsh"], in: LanesProcess.temporaryDirectory("tcsh"))
        #expect(result.status == 64)
        #expect(result.standardError.contains("lanes completes bash, zsh and fish"))
    }
}
