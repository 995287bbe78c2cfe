/// One step's page for a terminal: `lanes help STEP` (served by the runner) and `lanes actions STEP`
/// (served by `lanes-tool`) print the same text, built from the declaration.
extension StepInfo {
    public var helpPage: String {
        var text = "\(id): \(summary)\n\nIn a Lanefile: \(definition.functionName)(...)"
        text += resultType == "Void" ? "\n" : " -> \(resultType)\n"
        if !definition.aliases.isEmpty {
            text += "Also called: \(definition.aliases.joined(separator: ", ")) (fastlane's names)\n"
        }
        text += "\nOptions:\n"
        if options.isEmpty { text += "  (none)\n" }
        for option in options {
            text += "  \(option.name) (\(option.facts.joined(separator: ", ")))\n      \(option.summary)\n"
            if !option.aliases.isEmpty { text += "      also named: \(option.aliases.joined(separator: ", "))\n" }
        }
        for (name, reason) in definition.ignoredOptions.sorted(by: { $0.key < $1.key }) {
            text += "  \(name) (accepted and ignored)\n      \(reason)\n"
        }
        for (name, value) in definition.standaloneDefaults.sorted(by: { $0.key < $1.key }) {
            text += "\nRun alone (lanes run), \(name) defaults to \(value).\n"
        }
        if !examples.isEmpty { text += "\nExamples:\n" }
        for example in examples {
            text += "  In a lane:        \(example.swift)\n"
            text += "  From a shell:     \(example.shellCommand(id: id))\n\n"
        }
        return text
    }
}

extension OptionInfo {
    /// Type, variables (in the order they are read), secrecy, default, requirement.
    public var facts: [String] {
        var facts = [typeName]
        if !environmentVariables.isEmpty { facts.append("env \(environmentVariables.joined(separator: ", then "))") }
        if isSecret { facts.append("secret: environment only") }
        if let value = defaultText { facts.append("default \(value)") }
        facts.append(isRequired ? "required" : "optional")
        return facts
    }
}
