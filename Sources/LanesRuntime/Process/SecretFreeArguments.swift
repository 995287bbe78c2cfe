/// The one check that no step hands a secret to a child in its arguments: any local user reads a
/// process's arguments (`ps` shows them), while its environment is the owner's alone.
/// `LaneRun` puts every step's process runner behind it, so the check holds for every tool and
/// every option that builds a command line (`xcargs`, `export_xcargs`, Gradle's
/// `system_properties` and `flags`, `sh`'s command), and for stand-ins in tests too. A secret in
/// any shape the redactor knows counts (its base64, percent or JSON forms): the child is not
/// started, and the error names the step and the option the secret came through.
struct SecretFreeArguments: ProcessRunning {
    let base: any ProcessRunning
    let step: String
    /// The step's options as its `step_started` event shows them (secrets masked).
    let options: [ResolvedOption]
    /// The names of the step's secret options, read only to explain a refusal.
    let secretOptions: @Sendable () -> Set<String>
    let redactor: Redactor

    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        if let position = request.arguments.firstIndex(where: redactor.containsSecret) {
            throw refusal(program: request.arguments.first ?? "", position: position)
        }
        return try await base.run(request, onLine: onLine)
    }

    func run(_ request: ProcessRequest, log: StepLog, collector: LineCollector?) async throws -> ProcessOutcome {
        if let position = request.arguments.firstIndex(where: redactor.containsSecret) {
            throw refusal(program: request.arguments.first ?? "", position: position)
        }
        return try await base.run(request, log: log, collector: collector)
    }

    private func refusal(program: String, position: Int) -> LanesError {
        let name = redactor.redact(program.split(separator: "/").last.map(String.init) ?? program)
        // A plain option whose value shows a mask carried the secret; a secret option only when no
        // plain one did (the step itself put it on the command line).
        let masked = options.filter { $0.shownValue.contains(Redactor.mask) }
        let secret = secretOptions()
        let culprits = masked.filter { !secret.contains($0.name) }.nonEmpty ?? masked
        let source: String = switch culprits.count {
        case 0: "built by the step itself"
        case 1: "from option '\(culprits[0].name)'\(Self.origin(culprits[0].source))"
        default: "from options " + culprits.map { "'\($0.name)'" }.joined(separator: ", ")
        }
        let what = position == 0 ? "as the program" : "argument \(position)"
        return LanesError(.configuration, "\(step): refusing to start \(name) with a secret in its arguments (\(what), \(source))",
                          hint: "any local user can read a process's arguments; give the secret to the tool through its environment (every child gets the lane's variables), a file or standard input instead")
    }

    private static func origin(_ source: OptionSource) -> String {
        if case .environment(let variable) = source { return " (set by $\(variable))" }
        return ""
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
