/// `lanes run STEP key:value ...`: one built-in step run like a lane of its own, with the same
/// validation, reporting, redaction and cleanups.
public enum SingleStepRun {
    public static func main(_ type: any Step.Type, arguments: [String]) async -> Never {
        let lane = Lane(type.info.id, type.info.summary, options: type.info.options) { invocation in
            try await perform(type, values: invocation.values)
        }
        await LanefileRunner.main(Lanefile { lane }, arguments: [type.info.id] + arguments)
    }

    private static func perform<S: Step>(_ type: S.Type, values: OptionValues) async throws {
        let output = try await runStep(try S(options: values))
        if S.Output.self != Void.self {
            try echo("Result: \(output)")
        }
    }
}
