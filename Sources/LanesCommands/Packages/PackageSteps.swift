import Foundation
import Lanes
import LanesPlatform

/// The steps a Lanefile registers from its packages, as its runner describes them (`__steps`): the
/// tool cannot load a package's types, so `lanes actions` shows them from that description.
struct PackageSteps {
    struct Entry {
        let id: String
        let summary: String
        let package: String
        /// The runner's description as is, for `--json`.
        let json: JSONValue
        let options: [(name: String, doc: String, facts: String)]
        let examples: [(swift: String, commandLine: String)]

        var page: String {
            var text = "\(id): \(summary)\n\nFrom the package module \(package).\n\nOptions:\n"
            if options.isEmpty { text += "  (none)\n" }
            for option in options { text += "  \(option.name) (\(option.facts))\n      \(option.doc)\n" }
            if !examples.isEmpty { text += "\nExamples:\n" }
            for example in examples {
                text += "  In a lane:        \(example.swift)\n  From a shell:     \(example.commandLine)\n\n"
            }
            return text
        }
    }

    let steps: [Entry]

    func step(id: String) -> Entry? { steps.first { $0.id == id } }

    /// Nothing when the driver handed over no compiled runner (no Lanefile, or one without packages).
    static func load(_ handoff: ProjectHandoff?) throws -> PackageSteps {
        guard let handoff, let runner = handoff.runner else { return PackageSteps(steps: []) }
        var output: [UInt8] = [], errors: [UInt8] = []
        let status: WaitStatus
        do {
            status = try ChildProcess([runner, PackageStepRequest.list]).runCapturingOutput(input: nil, started: { _ in }) { stream, bytes in
                if stream == .standardOutput { output.append(contentsOf: bytes) } else { errors.append(contentsOf: bytes) }
            }
        } catch {
            throw LanesError(.environment, error.description)
        }
        let data = Data(output)
        let message = String(decoding: errors, as: UTF8.self)
        guard status == .exited(0) else {
            throw LanesError(.configuration, "\(handoff.lanefile): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        guard let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw LanesError(.internal, "the runner of \(handoff.lanefile) described its package steps in an unexpected form")
        }
        return PackageSteps(steps: list.map { object in
            let options = (object["options"] as? [[String: Any]] ?? []).map { option in
                var facts = [option["type"] as? String ?? ""]
                if let variable = option["env"] as? String { facts.append("env \(variable)") }
                if option["secret"] as? Bool == true { facts.append("secret: environment only") }
                if let value = option["default"] as? String { facts.append("default \(value)") }
                facts.append(option["required"] as? Bool == true ? "required" : "optional")
                return (name: option["name"] as? String ?? "", doc: option["doc"] as? String ?? "", facts: facts.joined(separator: ", "))
            }
            let examples = (object["examples"] as? [[String: Any]] ?? []).map {
                (swift: $0["swift"] as? String ?? "", commandLine: $0["command_line"] as? String ?? "")
            }
            return Entry(id: object["id"] as? String ?? "", summary: object["summary"] as? String ?? "",
                         package: object["package"] as? String ?? "", json: jsonValue(object), options: options, examples: examples)
        })
    }

    /// `lanes actions`: the package steps after lanes' own, by package.
    var overview: String {
        guard !steps.isEmpty else { return "" }
        let width = steps.map(\.id.count).max() ?? 0
        var text = "\nfrom packages:\n"
        for step in steps {
            text += "  " + step.id + String(repeating: " ", count: width - step.id.count) + "  " + step.summary + " (\(step.package))\n"
        }
        return text
    }

    /// `lanes actions --markdown`: a section for the package steps, each marked with its module.
    var markdown: String {
        guard !steps.isEmpty else { return "" }
        var text = "\n## From packages\n"
        for step in steps {
            text += "\n### `\(step.id)` (package `\(step.package)`)\n\n\(step.summary).\n\n"
            if step.options.isEmpty { text += "No options.\n" }
            for option in step.options { text += "- `\(option.name)` (\(option.facts)): \(option.doc)\n" }
        }
        return text
    }

    private static func jsonValue(_ value: Any) -> JSONValue {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as NSNumber: return .number(number.doubleValue)
        case let list as [Any]: return .array(list.map(jsonValue))
        case let object as [String: Any]:
            // The runner's field order: id first, as lanes' own steps.
            let order = ["id", "summary", "category", "function", "package", "options", "name", "swift_name", "type",
                         "swift_type", "env", "required", "default", "secret", "doc", "result", "examples", "swift", "command_line"]
            let keys = object.keys.sorted { (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1) }
            return .object(keys.map { ($0, jsonValue(object[$0]!)) })
        default: return .null
        }
    }
}
