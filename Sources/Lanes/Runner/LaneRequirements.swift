/// The variables and secrets a lane declared, checked before its first step.
struct LaneRequirements {
    let lane: Lane

    /// Reports every missing variable and secret at once; registers present secrets for redaction.
    func check(in environment: Environment) throws {
        var problems: [String] = []
        for name in environment.missing(lane.requiredEnvironment) {
            problems.append("lane \(lane.name) needs environment variable \(name), which is not set")
        }
        for name in environment.missing(lane.requiredSecrets) {
            problems.append("lane \(lane.name) needs secret \(name), which is not set")
        }
        for name in lane.requiredSecrets {
            if let value = environment[name] { environment.redactor.register(value) }
        }
        guard problems.isEmpty else {
            throw ValidationErrors(kind: .environment, problems: problems)
        }
    }
}
