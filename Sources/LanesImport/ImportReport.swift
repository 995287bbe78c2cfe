import Foundation

/// What became of the Fastfile: every action call with its outcome, what was dropped and why, the
/// secrets and variables declared, and the commands to try the result. Rendered as Markdown or JSON.
public struct ImportReport: Sendable, Codable {
    public enum Outcome: String, Sendable, Codable {
        /// A lanes step (or plain Lanefile code the action map names) does it, with every option given.
        case step
        /// A lanes step does it, but some options the Fastfile gave were dropped (named in `detail` and
        /// under "Options dropped"): it may not do all the Fastfile asked.
        case stepWithDroppedOptions = "step with dropped options"
        /// lanes does it by itself; the call is dropped with a comment.
        case implicit
        /// Kept as `sh("fastlane", "run", ...)`: works while fastlane is installed.
        case fastlane
        /// Left for a human: a commented `TODO(import)` block in the Lanefile.
        case todo
    }

    public struct ActionEntry: Sendable, Codable, Equatable {
        public let lane: String
        public let action: String
        public let line: Int
        public let outcome: Outcome
        /// What it became (`buildApp(...)`), or why it was not translated.
        public let detail: String
    }

    public struct DroppedOption: Sendable, Codable, Equatable {
        public let lane: String
        public let action: String
        public let option: String
        public let line: Int
        public let reason: String
    }

    public struct Todo: Sendable, Codable, Equatable {
        public let lane: String
        public let line: Int
        public let reason: String
        public let text: String
    }

    public struct LaneEntry: Sendable, Codable, Equatable {
        public let name: String
        /// The name fastlane runs it by (`ios beta`).
        public let fastlaneName: String
        public let environment: [String]
        public let secrets: [String]
        public let options: [String]
    }

    /// A credential the Fastfile wrote as a literal: not copied, read from this secret instead.
    public struct SecretToCreate: Sendable, Codable, Equatable {
        public let name: String
        public let line: Int
        /// Where the literal was (`slack's slack_url in lane beta`).
        public let origin: String
    }

    /// A compiler error of the written Lanefile, with the Fastfile line it came from.
    public struct CompilerError: Sendable, Codable, Equatable {
        public let lanefileLine: Int
        public let fastfileLine: Int?
        public let message: String
    }

    public var source: String = ""
    public var lanes: [LaneEntry] = []
    public var actions: [ActionEntry] = []
    public var droppedOptions: [DroppedOption] = []
    public var todos: [Todo] = []
    public var notes: [String] = []
    public var compiled: Bool?
    public var compilerErrors: [CompilerError] = []
    public var secretsToCreate: [SecretToCreate] = []
    /// Lanes the Fastfile defines (read line by line, apart from the parser) that the Lanefile lacks: an importer bug.
    public var lostLanes: [String] = []

    /// Where the report stood before a statement was tried, to take back what a statement that
    /// became a TODO had recorded (counts, so trying a statement never copies the report).
    struct Checkpoint {
        let actions, droppedOptions, todos, notes, secretsToCreate: Int
    }

    var checkpoint: Checkpoint {
        Checkpoint(actions: actions.count, droppedOptions: droppedOptions.count, todos: todos.count, notes: notes.count,
                   secretsToCreate: secretsToCreate.count)
    }

    mutating func rollBack(to checkpoint: Checkpoint) {
        actions.removeSubrange(checkpoint.actions...)
        droppedOptions.removeSubrange(checkpoint.droppedOptions...)
        todos.removeSubrange(checkpoint.todos...)
        notes.removeSubrange(checkpoint.notes...)
        secretsToCreate.removeSubrange(checkpoint.secretsToCreate...)
    }

    public var secrets: [String] { Array(Set(lanes.flatMap(\.secrets))).sorted() }
    public var environment: [String] { Array(Set(lanes.flatMap(\.environment))).sorted() }

    /// The commands to try the imported Lanefile.
    public var commands: [String] {
        var commands = ["lanes list"]
        if let lane = lanes.first {
            commands.append("lanes help \(lane.name)")
            let variables = (lane.environment + lane.secrets).map { "\($0)=..." }
            commands.append((variables.isEmpty ? "" : variables.joined(separator: " ") + " ") + "lanes \(lane.name)")
            commands.append("lanes \(lane.name) --env NAME  # reads .env.NAME beside the Lanefile")
        }
        return commands
    }

    /// Share of action calls that became a step or were implicit.
    public var mappedShare: Double {
        actions.isEmpty ? 1 : Double(actions.filter { $0.outcome == .step || $0.outcome == .implicit }.count) / Double(actions.count)
    }

    public func count(_ outcome: Outcome) -> Int { actions.filter { $0.outcome == outcome }.count }

    public var markdown: String {
        var text = "# Import of \(source)\n\n"
        text += "\(actions.count) action calls: \(count(.step)) became lanes steps, \(count(.stepWithDroppedOptions)) became steps with "
            + "dropped options, \(count(.implicit)) are done by lanes itself, \(count(.fastlane)) are kept through fastlane, "
            + "\(count(.todo)) are left as TODO(import) (each stops its lane there).\n\n"
        if let compiled {
            text += compiled ? "The Lanefile compiles.\n\n" : "**The Lanefile does not compile yet**; the errors are below.\n\n"
        }
        text += "## Try it\n\n```sh\n" + commands.joined(separator: "\n") + "\n```\n\n"
        // Grouped once: a large Fastfile has thousands of lanes and calls.
        let byLane = Dictionary(grouping: actions, by: \.lane)
        let laneNames = Set(lanes.map(\.name))
        for lane in lanes {
            text += "## Lane `\(lane.name)` (fastlane `\(lane.fastlaneName)`)\n\n"
            if !lane.options.isEmpty { text += "Options: " + lane.options.map { "`\($0)`" }.joined(separator: ", ") + "\n\n" }
            if !lane.environment.isEmpty { text += "Environment: " + lane.environment.map { "`\($0)`" }.joined(separator: ", ") + "\n\n" }
            if !lane.secrets.isEmpty { text += "Secrets: " + lane.secrets.map { "`\($0)`" }.joined(separator: ", ") + "\n\n" }
            let entries = byLane[lane.name] ?? []
            if !entries.isEmpty {
                text += "| line | action | outcome | became |\n|---|---|---|---|\n"
                for entry in entries { text += "| \(entry.line) | `\(entry.action)` | \(entry.outcome.rawValue) | \(Self.cell(entry.detail)) |\n" }
                text += "\n"
            }
        }
        let hooks = actions.filter { !laneNames.contains($0.lane) }
        if !hooks.isEmpty {
            text += "## Hooks and top level\n\n| line | where | action | outcome | became |\n|---|---|---|---|---|\n"
            for entry in hooks {
                text += "| \(entry.line) | \(entry.lane) | `\(entry.action)` | \(entry.outcome.rawValue) | \(Self.cell(entry.detail)) |\n"
            }
            text += "\n"
        }
        if !droppedOptions.isEmpty {
            text += "## Options dropped\n\n| line | lane | action | option | why |\n|---|---|---|---|---|\n"
            for option in droppedOptions {
                text += "| \(option.line) | \(option.lane) | `\(option.action)` | `\(option.option)` | \(Self.cell(option.reason)) |\n"
            }
            text += "\n"
        }
        if !todos.isEmpty {
            text += "## TODO(import)\n\n"
            for todo in todos {
                text += "- line \(todo.line) (\(todo.lane)): \(todo.reason)\n"
            }
            text += "\n"
        }
        if !lostLanes.isEmpty {
            text += "## Lanes lost\n\nThe Fastfile defines these lanes, but the Lanefile has none of them: "
                + lostLanes.map { "`\($0)`" }.joined(separator: ", ") + ". Please report it with the Fastfile.\n\n"
        }
        if !secretsToCreate.isEmpty {
            text += "## Secrets to create\n\nThe Fastfile wrote these credentials as literals. They were not copied: create each secret "
                + "(in your CI's secret store, or a git-ignored `.env` beside the Lanefile), then remove the literal from the Fastfile's history.\n\n"
            text += "| secret | line | was |\n|---|---|---|\n"
            for secret in secretsToCreate { text += "| `\(secret.name)` | \(secret.line) | \(Self.cell(secret.origin)) |\n" }
            text += "\n"
        }
        if !secrets.isEmpty {
            text += "## Secrets declared\n\n" + secrets.map { "- `\($0)`" }.joined(separator: "\n") + "\n\n"
        }
        if !notes.isEmpty {
            text += "## Notes\n\n" + notes.map { "- \($0)" }.joined(separator: "\n") + "\n\n"
        }
        if !compilerErrors.isEmpty {
            text += "## Compiler errors\n\n"
            for error in compilerErrors {
                text += "- Lanefile.swift:\(error.lanefileLine)" + (error.fastfileLine.map { " (Fastfile line \($0))" } ?? "") + ": \(error.message)\n"
            }
            text += "\n"
        }
        return SwiftText.visible(text)
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        struct Rendered: Encodable {
            let report: ImportReport
            let commands: [String]
            let secrets: [String]
            enum CodingKeys: String, CodingKey { case source, lanes, actions, droppedOptions, todos, notes, compiled, compilerErrors, commands, secrets, secretsToCreate, lostLanes }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(report.source, forKey: .source)
                try container.encode(report.lanes, forKey: .lanes)
                try container.encode(report.actions, forKey: .actions)
                try container.encode(report.droppedOptions, forKey: .droppedOptions)
                try container.encode(report.todos, forKey: .todos)
                try container.encode(report.notes, forKey: .notes)
                try container.encodeIfPresent(report.compiled, forKey: .compiled)
                try container.encode(report.compilerErrors, forKey: .compilerErrors)
                try container.encode(commands, forKey: .commands)
                try container.encode(secrets, forKey: .secrets)
                try container.encode(report.secretsToCreate, forKey: .secretsToCreate)
                try container.encode(report.lostLanes, forKey: .lostLanes)
            }
        }
        let data = (try? encoder.encode(Rendered(report: self, commands: commands, secrets: secrets))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
