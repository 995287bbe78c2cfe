public import LanesPlatform
/// What a step from a Swift package says about itself, for `lanes actions` (served by `lanes-tool`,
/// which cannot load the package) and the step reference. The runner of a Lanefile that registers
/// package steps prints them with `__steps`; `__run-step ID ...` runs one like `lanes run`.
extension StepInfo {
    /// The module a step type is declared in: `Lanes` for lanes' own steps, else the package's module.
    public static func module(of type: any Step.Type) -> String {
        String(String(reflecting: type).prefix { $0 != "." })
    }

    /// The step as `lanes actions --json` shows it; `package` names the module of a package's step.
    public func referenceJSON(package: String? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("summary", .string(summary)), ("category", .string(category.rawValue)),
            ("function", .string(definition.functionName)),
        ]
        if let package { fields.append(("package", .string(package))) }
        fields += [
            ("options", .array(options.map { option in
                .object([
                    ("name", .string(option.name)), ("swift_name", .string(option.swiftName)), ("type", .string(option.typeName)),
                    ("swift_type", .string(option.swiftType)), ("env", option.environmentVariable.map(JSONValue.string) ?? .null),
                    ("env_names", .array(option.environmentVariables.map(JSONValue.string))), ("aliases", .array(option.aliases.map(JSONValue.string))),
                    ("required", .bool(option.isRequired)), ("default", option.defaultText.map(JSONValue.string) ?? .null),
                    ("secret", .bool(option.isSecret)), ("doc", .string(option.summary)),
                ])
            })),
            ("aliases", .array(definition.aliases.map(JSONValue.string))),
            ("ignored_options", .object(definition.ignoredOptions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("result", .string(resultType)),
            ("examples", .array(examples.map { example in
                .object([("swift", .string(example.swift)), ("command_line", .string(example.shellCommand(id: id)))])
            })),
        ]
        return .object(fields)
    }
}

extension StepExample {
    /// The example as a shell command: `lanes run ID key:value ...`, quoted where needed.
    public func shellCommand(id: String) -> String {
        let variables = environment.map { "\($0)=... " }.joined()
        var text = "\(variables)lanes run \(id) \(commandLine.map(Self.shellQuoted).joined(separator: " "))"
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_.,:/=@%+".contains($0) }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

extension Lanefile {
    /// `__steps`: the registered package steps as `lanes actions --json` shows them.
    func packageStepsJSON() -> JSONValue {
        .array(steps.map { $0.info.referenceJSON(package: StepInfo.module(of: $0)) })
    }
}
