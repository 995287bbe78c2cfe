import LanesTestSupport
import Foundation
import Testing
@testable import LanesCommands

/// `lanes completion bash|zsh|fish`, exercised in the real shells: subcommands (from the argument
/// parser's tree), step ids, lane flags, and lane names from the cached runner only.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct CompletionTests {
    let lanes = LanesCommandLine()

    static func installed(_ shell: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") }

    /// A project whose runner is compiled, a script for `shell`, and PATH leading to this build's lanes.
    func prepare(_ shell: String) async throws -> (project: URL, script: URL, environment: [String: String]) {
        let project = try LanesCommandLine.project("described")
        #expect(try await lanes.run(["list"], in: project).status == 0)
        let generated = try await lanes.run(["completion", shell], in: project)
        #expect(generated.status == 0)
        let script = project.appendingPathComponent("completion.\(shell)")
        try generated.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        let bin = URL(fileURLWithPath: try LanesCommandLine.executable).deletingLastPathComponent().path
        return (project, script, ["PATH": bin + ":" + (lanes.environment["PATH"] ?? "/usr/bin:/bin")])
    }

    func shell(_ arguments: [String], in directory: URL, environment: [String: String]) async throws -> String {
        try await Program.run(arguments, in: directory.path, environment: lanes.environment.merging(environment) { $1 }).standardOutput
    }

    /// The words bash offers for a command line whose last word is being completed.
    func bashCompletions(_ words: [String], script: URL, project: URL, environment: [String: String]) async throws -> Set<String> {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _lanes_with_lanes lanes "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try await shell(["/bin/bash", "-c", program], in: project, environment: environment)
        return Set(output.split(separator: "\n").map(String.init))
    }

    @Test func bashCompletesSubcommandsLanesStepsAndFlags() async throws {
        let (project, script, environment) = try await prepare("bash")
        let first = try await bashCompletions(["lanes", ""], script: script, project: project, environment: environment)
        let subcommands = Set(LanesCommand.configuration.subcommands.map { $0._commandName })
        #expect(subcommands.isSubset(of: first))
        #expect(Set(["deploy", "nightly", "greet", "list"]).isSubset(of: first))
        #expect(try await bashCompletions(["lanes", "ni"], script: script, project: project, environment: environment) == ["nightly"])
        #expect(try await bashCompletions(["lanes", "run", "import_"], script: script, project: project, environment: environment)
            == ["import_certificate"])
        #expect(try await bashCompletions(["lanes", "deploy", "--j"], script: script, project: project, environment: environment)
            == ["--json", "--junit"])
        #expect(try await bashCompletions(["lanes", "cron", "ne"], script: script, project: project, environment: environment) == ["next"])
    }

    @Test(.enabled(if: installed("fish"), "fish is not installed (make test-deps installs it)"))
    func fishCompletesLanesAndSteps() async throws {
        let (project, script, environment) = try await prepare("fish")
        func complete(_ line: String) async throws -> Set<String> {
            let output = try await shell(["/usr/bin/fish", "--no-config", "-c", "source '\(script.path)'; complete -C'\(line)'"],
                                   in: project, environment: environment)
            return Set(output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        }
        #expect(Set(["deploy", "nightly", "greet", "list", "cron", "env", "completion"]).isSubset(of: try await complete("lanes ")))
        #expect(try await complete("lanes run import_") == ["import_certificate"])
        #expect(try await complete("lanes deploy --js") == ["--json"])
    }

    @Test(.enabled(if: installed("zsh"), "zsh is not installed (make test-deps installs it)"))
    func zshScriptLoadsAndRegistersItsFunction() async throws {
        let (project, script, environment) = try await prepare("zsh")
        let output = try await shell(["/usr/bin/zsh", "-f", "-c",
                                "autoload -U compinit; compinit -u -D; source '\(script.path)'; print -r -- $_comps[lanes]"],
                               in: project, environment: environment)
        #expect(output == "_lanes_with_lanes\n")
    }

    @Test func laneNamesComeOnlyFromACompiledRunner() async throws {
        let project = try LanesCommandLine.project("described")
        let cold = try await lanes.run(["__complete-lanes"], in: project)
        #expect(cold.status == 0)
        #expect(cold.output.isEmpty)
        #expect(try await lanes.run(["list"], in: project).status == 0)
        #expect(try await lanes.run(["__complete-lanes"], in: project).standardOutput == "deploy\nnightly\ngreet\n")
        let elsewhere = try await lanes.run(["__complete-lanes"], in: LanesCommandLine.temporaryDirectory("nolanes"))
        #expect(elsewhere.status == 0 && elsewhere.output.isEmpty)
    }

    @Test func unknownShellIsAUsageError() async throws {
        let result = try await lanes.run(["completion", "tcsh"], in: LanesCommandLine.temporaryDirectory("tcsh"))
        #expect(result.status == 64)
        #expect(result.standardError.contains("lanes completes bash, zsh and fish"))
    }
}
