/// The variables and secrets a lane declared, checked before its first step.
struct LaneRequirements {
    let lane: Lane

    /// Registers for redaction every secret the lane declared, as a secret or as a secret option's
    /// variable. Runs before anything about the lane is validated, so no error can show one.
    func registerSecrets(in environment: Environment) {
        let optionVariables = lane.options.filter(\.isSecret).compactMap(\.environmentVariable)
        for name in lane.requiredSecrets + optionVariables {
            if let value = environment[name] { environment.redactor.register(value, name: name) }
        }
    }

    /// Reports every missing variable and secret at once.
    func check(in environment: Environment) throws {
        var problems: [String] = []
        for name in environment.missing(lane.requiredEnvironment) {
            problems.append("lane \(lane.name) needs environment variable \(name), which is not set")
        }
        for name in environment.missing(lane.requiredSecrets) {
            problems.append("lane \(lane.name) needs secret \(name), which is not set")
        }
        registerSecrets(in: environment)
        guard problems.isEmpty else {
            throw ValidationErrors(kind: .environment, problems: problems)
        }
    }
}
