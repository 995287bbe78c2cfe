internal import LanesPlatform

/// The variables and secrets a lane declared, checked before its first step.
struct LaneRequirements {
    let lane: Lane

    /// Registers for redaction every secret the lane declared, as a secret or as a secret option's
    /// variable. Runs before anything about the lane is validated, so no error can show one.
    func registerSecrets(in environment: Environment) {
        let optionVariables = lane.options.filter(\.isSecret).flatMap(\.environmentVariables)
        for name in lane.requiredSecrets + optionVariables {
            if let value = environment[name] { environment.redactor.register(value, name: name) }
        }
    }

    /// The declared tools that are not on the lane's PATH.
    func missingTools(in environment: Environment) -> [String] {
        lane.requiredTools.filter { FilePath.which($0, path: environment["PATH"]) == nil }
    }

    /// Reports every missing variable, secret and tool at once.
    func check(in environment: Environment) throws {
        var problems: [String] = []
        for name in environment.missing(lane.requiredEnvironment) {
            problems.append("lane \(lane.name) needs environment variable \(name), which is not set")
        }
        for name in environment.missing(lane.requiredSecrets) {
            problems.append("lane \(lane.name) needs secret \(name), which is not set")
        }
        for tool in missingTools(in: environment) {
            problems.append("lane \(lane.name) needs the tool \(tool), which is not on PATH")
        }
        registerSecrets(in: environment)
        guard problems.isEmpty else {
            throw ValidationErrors(kind: .environment, problems: problems)
        }
    }
}
