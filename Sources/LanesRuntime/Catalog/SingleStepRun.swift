/// `lanes run STEP key:value ...`: one built-in step run like a lane of its own, with the same
/// validation, reporting, redaction and cleanups, and its result printed for a person or as JSON.
public enum SingleStepRun {
    public static func main(_ type: any Step.Type, arguments: [String]) async -> Never {
        let info = type.info
        // fastlane's options that lanes ignores are accepted here too; the step notes them.
        let ignored = info.definition.ignoredOptions.keys.sorted().map { name in
            PassThroughOption(info: OptionInfo(name: name, summary: "ignored", typeName: "text", environmentVariables: [], isSecret: false,
                                               defaultText: nil, mayBeAbsent: true, swiftName: name, swiftType: "String?",
                                               spelling: .labeled, accepts: { _ in true }))
        }
        let lane = Lane(info.id, info.summary, options: info.options.map { PassThroughOption(info: $0) } + ignored) { invocation in
            var given = invocation.values.given
            for option in info.options {
                guard let value = info.definition.standaloneDefaults[option.name], !option.names.contains(where: { given[$0] != nil }),
                      !option.environmentVariables.contains(where: { !(invocation.values.environment[$0] ?? "").isEmpty }) else { continue }
                given[option.name] = value
            }
            try await perform(type, given: given)
        }
        await LanefileRunner.main(Lanefile { lane }, arguments: [info.id] + arguments)
    }

    private static func perform<S: Step>(_ type: S.Type, given: [String: String]) async throws {
        let output = try await runStep(S.self, StepArguments(text: given))
        guard S.Output.self != Void.self, let run = LaneRun.current else { return }
        run.reportResult(StepResultRendering.render(output))
    }
}

/// A step option offered as an option of the one-step lane, so the lane validates it first.
private struct PassThroughOption: LaneOptionDeclaration {
    let info: OptionInfo
}
