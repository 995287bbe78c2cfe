import Lanes

/// Renders steps' self-descriptions as text: the single source for `lanes actions` and the docs.
enum StepDocumentation {
    static func overview(_ steps: [any Step.Type]) -> String {
        let infos = steps.map { $0.info }
        let width = infos.map { $0.id.count }.max() ?? 0
        let lines = infos.map { info in
            info.id + String(repeating: " ", count: width - info.id.count + 2) + info.summary
        }
        return lines.joined(separator: "\n") + "\n\nlanes actions STEP documents one step.\n"
    }

    static func page(for info: StepInfo) -> String {
        var text = "\(info.id): \(info.summary)\n\nOptions:\n"
        if info.options.isEmpty { text += "  (none)\n" }
        for option in info.options {
            var facts = [option.typeName]
            if let variable = option.environmentVariable { facts.append("env \(variable)") }
            if option.isSecret { facts.append("secret: environment only") }
            if let value = option.defaultText { facts.append("default \(value)") }
            facts.append(option.isRequired ? "required" : "optional")
            text += "  \(option.name) (\(facts.joined(separator: ", ")))\n      \(option.summary)\n"
        }
        if !info.examples.isEmpty { text += "\nExamples:\n" }
        for example in info.examples {
            text += "  In a lane:        \(example.swift)\n"
            let environment = example.environment.map { "\($0)=... " }.joined()
            text += "  From a shell:     \(environment)lanes run \(info.id) \(example.commandLine.map(shellQuoted).joined(separator: " "))\n\n"
        }
        return text
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_.,:/=@%+".contains($0) }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
