public import LanesPlatform  // Host in the public signature

/// `lanes run STEP key:value ...`: one built-in step run like a lane of its own, with the same
/// validation, reporting, redaction and cleanups, and its result printed for a person or as JSON.
public enum SingleStepRun {
    /// The `main` of `lanes run STEP` and of the CLI's step front doors: runs the step over the real
    /// host and exits with its status. `invokedAs`: the id or alias the step was called by
    /// (`build_mac_app` implies options).
    public static func main(_ type: any Step.Type, arguments: [String], invokedAs: String? = nil) async -> Never {
        SystemHost.exit(await run(type, arguments: arguments, invokedAs: invokedAs, host: SystemHost()))
    }

    /// Runs `type` as a one-step lane with `arguments`; the exit status.
    public static func run(_ type: any Step.Type, arguments: [String], invokedAs: String? = nil, host: any Host) async -> Int32 {
        let info = type.info
        let implied = invokedAs.flatMap { info.definition.aliasArguments[$0] } ?? [:]
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
            for (name, value) in implied where !(info.options.first { $0.name == name }?.names ?? [name]).contains(where: { given[$0] != nil }) {
                given[name] = value
            }
            try await perform(type, given: given)
        }
        return await LanefileRunner.runLane(Lanefile { lane }, arguments: [info.id] + arguments, host: host)
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
