import LanesBuild
// PropertyListSerialization (an .ipa's Info.plist) is Foundation's.
internal import Foundation
internal import LanesPlatform

/// `ensure_env_vars` (fastlane's): fails naming every variable that is unset or blank.
public struct EnsureEnvVars: Step {
    public static let definition = StepDefinition(
        id: "ensure_env_vars",
        summary: "Fail unless every named environment variable is set (and not blank)",
        category: .shell,
        examples: [StepExample(swift: #"try await ensureEnvVars(envVars: ["MATCH_PASSWORD", "SLACK_URL"])"#,
                               commandLine: ["env_vars:MATCH_PASSWORD,SLACK_URL"])]
    )

    @StepOption("env_vars", "The variables' names (comma-separated on the command line)")
    var envVars: [String]

    public init() {}

    public func run(in context: StepContext) async throws {
        guard !envVars.isEmpty else { throw LanesError(.usage, "ensure_env_vars: name at least one environment variable") }
        let missing = envVars.filter { (context.environment[$0] ?? "").allSatisfy(\.isWhitespace) }
        guard missing.isEmpty else {
            throw LanesError(.environment, "missing environment variable\(missing.count == 1 ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", "))")
        }
        context.log.line("environment variable\(envVars.count == 1 ? "" : "s") \(envVars.joined(separator: ", ")) \(envVars.count == 1 ? "is" : "are") set")
    }
}

/// `get_ipa_info_plist_value` (fastlane's): one value of the app's Info.plist inside an .ipa
/// (default: the .ipa build_app made in this lane), as text; nil when the key is absent.
public struct GetIpaInfoPlistValue: Step {
    public typealias Output = String?

    public static let definition = StepDefinition(
        id: "get_ipa_info_plist_value",
        summary: "Read a value from the Info.plist inside an .ipa (default: the one build_app made)",
        category: .build,
        examples: [StepExample(swift: #"let version = try await getIpaInfoPlistValue(key: "CFBundleShortVersionString", ipa: "build/Brewer.ipa")"#,
                               commandLine: ["key:CFBundleShortVersionString", "ipa:build/Brewer.ipa"])]
    )

    @StepOption("key", "The Info.plist key", fastlaneEnv: ["FL_GET_IPA_INFO_PLIST_VALUE_KEY"])
    var key: String
    @StepOption("ipa", "The .ipa (default: what build_app made in this lane)", fastlaneEnv: ["FL_GET_IPA_INFO_PLIST_VALUE_IPA"])
    var ipa: String?

    public init() {}

    public func run(in context: StepContext) async throws -> String? {
        guard let path = ipa.map(context.resolve) ?? context.values[BuiltAppValue.self]?.ipaPath else {
            throw LanesError(.usage, "get_ipa_info_plist_value: no ipa given and build_app made none in this lane", hint: "pass ipa:")
        }
        let bytes = try IPAInspector.infoPlistBytes(path: path)
        guard let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any] else {
            throw LanesError(.configuration, "get_ipa_info_plist_value: the Info.plist in \(path) is not a property list dictionary")
        }
        let value = plist[key].map(Self.text(of:))
        context.log.line("\(key) = \(value ?? "(absent)")")
        return value
    }

    static func text(of value: Any) -> String {
        switch value {
        case let text as String: text
        case let list as [Any]: list.map(text(of:)).joined(separator: ",")
        default: "\(value)"
        }
    }
}

/// `copy_artifacts` (fastlane's): copies (or moves) files and folders, glob patterns expanded, into
/// `target_path`; a missing one is skipped unless `fail_on_missing`.
public struct CopyArtifacts: Step {
    public typealias Output = [String]

    public static let definition = StepDefinition(
        id: "copy_artifacts",
        summary: "Copy (or move) build artifacts, globs expanded, into a folder",
        category: .build,
        examples: [StepExample(swift: #"try await copyArtifacts(targetPath: "artifacts", artifacts: ["*.ipa", "*.dSYM.zip"])"#,
                               commandLine: ["target_path:artifacts", "artifacts:*.ipa,*.dSYM.zip"])]
    )

    @StepOption("keep_original", "Copy (false: move)", default: true)
    var keepOriginal: Bool
    @StepOption("target_path", "The folder the artifacts go into", default: "artifacts")
    var targetPath: String
    @StepOption("artifacts", "Files, folders or glob patterns (* and **)", default: [])
    var artifacts: [String]
    @StepOption("fail_on_missing", "Fail when a named file does not exist", default: false)
    var failOnMissing: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> [String] {
        let target = context.resolve(targetPath)
        try FilePath.makeDirectories(target)
        var found: [String] = []
        var missing: [String] = []
        for pattern in artifacts {
            if pattern.contains("*") {
                found += FileGlob.matches(context.resolve(pattern))
            } else if FilePath.exists(context.resolve(pattern)) {
                found.append(context.resolve(pattern))
            } else {
                missing.append(pattern)
            }
        }
        if failOnMissing && !missing.isEmpty {
            throw LanesError(.configuration, "copy_artifacts: not all files were present; missing \(missing.joined(separator: ", "))")
        }
        var copied: [String] = []
        for source in found {
            let destination = target + "/" + FilePath.name(of: source)
            guard destination != source else { continue }
            FilePath.removeTree(destination)
            let program = keepOriginal ? ["cp", "-R", "-p", source, destination] : ["mv", "-f", source, destination]
            let outcome = try await context.processes.run(ProcessRequest(program)) { context.log.line($0) }
            guard outcome.succeeded else { throw LanesError(.laneFailure, "copy_artifacts: \(program[0]) \(source) failed") }
            copied.append(destination)
        }
        context.log.line("\(keepOriginal ? "copied" : "moved") \(copied.count) artifact(s) to \(target)")
        return copied
    }
}

/// `prompt` (fastlane's): asks on the terminal; on CI, or with no terminal, answers `ci_input` when
/// one is given and otherwise fails saying so (a lane never waits for an answer nobody can give).
public struct Prompt: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "prompt",
        summary: "Ask for a value on the terminal (on CI: ci_input, or a clear failure)",
        category: .shell,
        examples: [StepExample(swift: #"let notes = try await prompt(text: "Release notes: ", ciInput: "Bug fixes")"#,
                               commandLine: ["text:Release notes: ", "ci_input:Bug fixes"])]
    )

    @StepOption("text", "The question", default: "Please enter some text: ")
    var text: String
    @StepOption("ci_input", "The answer on CI or without a terminal (unset: the step fails there)")
    var ciInput: String?
    @StepOption("boolean", "A yes/no question: the answer is true or false", default: false)
    var boolean: Bool
    @StepOption("secure_text", "Do not echo the answer; it is redacted from all output", default: false)
    var secureText: Bool
    @StepOption("multi_line_end_keyword", "Read lines until one holds this word")
    var multiLineEndKeyword: String?

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        if let unattended = Self.unattendedReason(context.environment.variables) {
            guard let ciInput else {
                throw LanesError(.usage, "prompt: '\(text)' needs an answer, and this run \(unattended)",
                                 hint: "give ci_input: (the answer an unattended run uses), or a lane option or environment variable instead of a prompt")
            }
            context.log.line("\(text)\(secureText ? Redactor.mask : ciInput) (ci_input)")
            if secureText { context.environment.redactor.register(ciInput) }
            return boolean ? String(["y", "yes", "true", "1"].contains(ciInput.lowercased())) : ciInput
        }
        context.log.line(text + (boolean ? " (y/n)" : ""))
        let end = multiLineEndKeyword, secure = secureText
        let answer = try await BlockingWork.run(onCancel: {}) { () -> String in
            if secure { TerminalEcho.set(false) }
            defer { if secure { TerminalEcho.set(true) } }
            var lines: [String] = []
            while let line = readLine(strippingNewline: true) {
                guard let end else { return line.trimmingCharacters(in: .whitespaces) }
                if let range = line.range(of: end) { lines.append(String(line[..<range.lowerBound])); break }
                lines.append(line)
            }
            return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if secureText { context.environment.redactor.register(answer) }
        return boolean ? String(["y", "yes", "true", "1"].contains(answer.lowercased())) : answer
    }
}

extension Prompt {
    /// Why nobody can answer a question in this run ("is on CI", "has no terminal"); nil when someone can.
    static func unattendedReason(_ variables: [String: String]) -> String? {
        let flag = (variables["CI"] ?? "").lowercased()
        if (!flag.isEmpty && flag != "false" && flag != "0") || CISystem.detect(in: variables) != nil { return "is on CI" }
        return isatty(0) == 1 ? nil : "has no terminal"
    }
}

/// Echo of the terminal on standard input, off while a secret is typed.
enum TerminalEcho {
    static func set(_ on: Bool) {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return }
        if on { settings.c_lflag |= tcflag_t(ECHO) } else { settings.c_lflag &= ~tcflag_t(ECHO) }
        tcsetattr(0, TCSANOW, &settings)
    }
}

/// Paths matching a pattern with `*`, `?`, `[...]` in a component, and `**` for any folders.
enum FileGlob {
    static func matches(_ pattern: String) -> [String] {
        let absolute = pattern.hasPrefix("/")
        var results = [absolute ? "" : "."]
        let parts = pattern.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            var next: [String] = []
            for base in results {
                let folder = base.isEmpty ? "/" : base
                if part == "**" {
                    next += [base] + descendants(of: folder).map { join(base, $0) }.filter { FilePath.isDirectory($0) || last }
                } else if part.contains(where: { "*?[".contains($0) }) {
                    next += FilePath.entries(of: folder).filter { fnmatch(part, $0, 0) == 0 && !$0.hasPrefix(".") }.sorted().map { join(base, $0) }
                } else if FilePath.exists(join(base, part)) {
                    next.append(join(base, part))
                }
            }
            results = next
        }
        return Array(Set(results)).sorted()
    }

    private static func join(_ base: String, _ name: String) -> String { base == "." ? name : base + "/" + name }

    private static func descendants(of folder: String) -> [String] {
        FilePath.entries(of: folder).filter { !$0.hasPrefix(".") }.flatMap { name -> [String] in
            let path = folder == "/" ? "/" + name : folder + "/" + name
            return [name] + (FilePath.isDirectory(path) ? descendants(of: path).map { name + "/" + $0 } : [])
        }
    }
}
