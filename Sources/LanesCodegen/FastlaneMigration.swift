import LanesRuntime
import LanesPlatform

/// Renders `FastlaneActionMap`: `lanes actions --fastlane [--json]` and docs/migrating-from-fastlane.md.
public enum FastlaneMigration {
    public static let markdownPath = "docs/migrating-from-fastlane.md"

    /// One object per fastlane action: name, aliases, status and what lanes does instead.
    public static func json(_ actions: [FastlaneAction] = FastlaneActionMap.all) -> JSONValue {
        .array(actions.map { action in
            var fields: [(String, JSONValue)] = [("action", .string(action.name)), ("aliases", .array(action.aliases.map(JSONValue.string))),
                                                 ("status", .string(action.mapping.status)), ("covered", .bool(action.mapping.isCovered))]
            switch action.mapping {
            case .step(let id, let options, let unsupported, let note):
                fields.append(("step", .string(id)))
                fields.append(("function", .string(functionName(of: id))))
                fields.append(("options", .object(Self.options(of: action, listed: options).sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
                fields.append(("unsupported_options", .object(unsupported.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
                if let note { fields.append(("note", .string(note))) }
                if !action.fastlaneOptions.isEmpty {
                    fields.append(("fastlane_options", .array(action.optionTable.map { row in
                        var entry: [(String, JSONValue)] = [("fastlane", .string(row.fastlane))]
                        switch row.lanes {
                        case .option(let option)?: entry.append(("option", .string(option.name)))
                        case .ignored(let reason)?: entry.append(("ignored", .string(reason)))
                        case nil: entry.append(("unsupported", .string(row.unsupported ?? "")))
                        }
                        return .object(entry)
                    })))
                }
            case .lanefile(let function, let note):
                fields.append(("function", .string(function)))
                fields.append(("note", .string(note)))
            case .implicit(let reason), .notSupported(let reason):
                fields.append(("reason", .string(reason)))
            }
            return .object(fields)
        })
    }

    /// One line per action, for a terminal.
    public static func overview(_ actions: [FastlaneAction] = FastlaneActionMap.all) -> String {
        let width = actions.map(\.name.count).max() ?? 0
        return actions.map { action in
            "  " + action.name + String(repeating: " ", count: max(0, width - action.name.count)) + "  " + summary(action.mapping)
        }.joined(separator: "\n") + "\n"
    }

    /// docs/migrating-from-fastlane.md.
    public static func markdown(_ actions: [FastlaneAction] = FastlaneActionMap.all) -> String {
        var text = """
            # Migrating from fastlane

            <!-- Generated from FastlaneActionMap (Sources/LanesRuntime/Catalog/FastlaneActionMap.swift) by `make generate`; do not edit. -->

            Each fastlane action (and its aliases) and what a Lanefile writes instead. `lanes actions --fastlane --json`
            prints the same table for scripts and importers. Option names follow fastlane's where fastlane has them;
            the Lanefile function takes them in lower camel case (`only_testing` becomes `onlyTesting:`).

            | fastlane action | lanes | notes |
            |---|---|---|

            """
        for action in actions {
            let names = action.names.map { "`\($0)`" }.joined(separator: ", ")
            let (lanes, notes): (String, String) = switch action.mapping {
            case .step(let id, let options, let unsupported, let note):
                ("`\(functionName(of: id))` (step `\(id)`)",
                 ([note].compactMap { $0 } + renamed(Self.options(of: action, listed: options))
                    + (action.fastlaneOptions.isEmpty ? unsupported.sorted { $0.key < $1.key }.map { "`\($0.key)`: \($0.value)" }
                                                       : ["every option: see below"]))
                    .joined(separator: "; "))
            case .lanefile(let function, let note): ("`\(function)`", note)
            case .implicit(let reason): ("implicit", reason)
            case .notSupported(let reason): ("not supported", reason)
            }
            text += "| \(names) | \(lanes) | \(notes.replacing("|", with: "\\|")) |\n"
        }
        for action in actions where !action.fastlaneOptions.isEmpty {
            text += "\n## fastlane's `\(action.name)` option by option\n\n"
            text += "Every option fastlane's action declares, and what lanes does with it.\n\n| fastlane option | lanes | |\n|---|---|---|\n"
            for row in action.optionTable {
                let (lanes, notes): (String, String) = switch row.lanes {
                case .option(let option)?:
                    ("`\(option.name)` (`\(option.swiftName):`)",
                     ([option.defaultText.map { "default `\($0)`" }, option.environmentVariables.isEmpty ? nil
                        : "env " + option.environmentVariables.map { "`\($0)`" }.joined(separator: ", ")].compactMap { $0 }).joined(separator: "; "))
                case .ignored(let reason)?: ("accepted, ignored", reason)
                case nil: ("none", row.unsupported ?? "")
                }
                text += "| `\(row.fastlane)` | \(lanes) | \(notes.replacing("|", with: "\\|")) |\n"
            }
        }
        return text
    }

    private static func summary(_ mapping: FastlaneAction.Mapping) -> String {
        switch mapping {
        case .step(let id, _, _, _): "\(functionName(of: id))(...)"
        case .lanefile(let function, _): function
        case .implicit(let reason): "implicit: " + reason
        case .notSupported(let reason): "not supported: " + reason
        }
    }

    /// fastlane's option names and the step options they are: the map's, and for actions whose every
    /// option it lists, each one the step takes by name or alias.
    static func options(of action: FastlaneAction, listed: [String: String]) -> [String: String] {
        var options = listed
        for row in action.optionTable {
            if case .option(let option)? = row.lanes, options[row.fastlane] == nil { options[row.fastlane] = option.name }
        }
        return options
    }

    /// Options whose lanes name differs from fastlane's.
    private static func renamed(_ options: [String: String]) -> [String] {
        options.filter { $0.key != $0.value }.sorted { $0.key < $1.key }.map { "`\($0.key)` is `\($0.value)`" }
    }

    private static func functionName(of id: String) -> String {
        StepCatalog.step(id: id)?.definition.functionName
            ?? StepDefinition(id: id, summary: "", category: .shell, examples: []).functionName
    }
}
