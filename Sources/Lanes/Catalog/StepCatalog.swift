/// Every built-in step, for `lanes actions`, `lanes run` and the documentation tests.
public enum StepCatalog {
    public static let builtIn: [any Step.Type] = [ShellCommand.self] + SigningSteps.all + XcodeSteps.all + GitSteps.all

    public static func step(id: String) -> (any Step.Type)? {
        builtIn.first { $0.info.id == id }
    }
}
