import ArgumentParser
import LanesPlatform

/// `lanes`, `lanes --help`, `lanes help`: how to run a lane, the subcommands (read from the argument
/// parser's tree, so new ones appear by themselves) and, when a Lanefile is found, its lanes.
struct TopLevelHelp {
    /// How many lanes the help lists before pointing at `lanes list`.
    static let laneLimit = 30

    let subcommands: [(name: String, abstract: String)]
    let handoff: ProjectHandoff?
    let lanes: ProjectLanes?
    /// Why the lanes could not be listed, when a Lanefile exists but its runner failed.
    let lanesProblem: String?

    init(root: any ParsableCommand.Type, handoff: ProjectHandoff?) {
        subcommands = root.configuration.subcommands
            .filter { $0.configuration.shouldDisplay }
            .map { ($0._commandName, $0.configuration.abstract) }
        self.handoff = handoff
        var problem: String?
        do {
            lanes = try handoff.flatMap(ProjectLanes.load)
        } catch {
            lanes = nil
            problem = "\(error)"
        }
        lanesProblem = problem
    }

    var rendered: String {
        var lines = [
            "lanes \(LanesVersion.current): continuous delivery for app teams, in typed Swift.",
            "",
            "USAGE: lanes LANE [key:value ...] [--env NAME[,NAME...]] [--json] [--junit PATH] [--lanefile PATH]",
            "       lanes list [--json]",
            "       lanes help LANE  (or lanes LANE --help)",
            "       lanes <subcommand> [--help]",
            "",
            "RUNNING A LANE:",
            "  key:value             a typed option of the lane (lanes help LANE lists them)",
            "  --env NAME[,NAME...]  read .env.default, .env, then .env.NAME for each name in order",
            "  --json                one JSON event per line instead of the human output",
            "  --junit PATH          also write a JUnit XML report to PATH",
            "  --lanefile PATH       this Lanefile instead of the nearest Lanefile.swift upwards",
            "",
            "COMMANDS:",
        ]
        let own = [("list", "List the lanes of the Lanefile, with options and schedules."),
                   ("help LANE", "Show a lane's description, options, environment and secrets.")]
        let all = own + subcommands
        let width = all.map(\.0.count).max() ?? 0
        lines += all.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
        lines += ["", "  --version  the version, the compiler Lanefiles are built with, where lanes is installed"]
        lines.append("")
        lines += laneSection
        lines += packageStepSection
        return lines.joined(separator: "\n") + "\n"
    }

    /// The steps the Lanefile's packages add (only a Lanefile with `lanes/Package.swift` has any).
    private var packageStepSection: [String] {
        guard let handoff, handoff.runner != nil,
              FilePath.exists(FilePath.directory(of: handoff.lanefile) + "/lanes/Package.swift"),
              let steps = try? PackageSteps.load(handoff), !steps.steps.isEmpty else { return [] }
        let width = steps.steps.map(\.id.count).max() ?? 0
        return ["", "STEPS FROM PACKAGES (lanes actions STEP documents one; lanes run STEP runs it):"]
            + steps.steps.map { "  " + $0.id + String(repeating: " ", count: width - $0.id.count + 2) + $0.summary + " (\($0.package))" }
    }

    private var laneSection: [String] {
        guard let handoff else {
            return ["No Lanefile.swift in this folder or above: `lanes init` creates one."]
        }
        guard let lanes else {
            if let lanesProblem { return ["LANES: \(handoff.lanefile) cannot list its lanes:", "  \(lanesProblem)"] }
            return ["LANES: \(handoff.lanefile) did not compile; `lanes list` shows the errors."]
        }
        guard !lanes.lanes.isEmpty else { return ["LANES: \(handoff.lanefile) defines none."] }
        var lines = ["LANES (\(handoff.lanefile)):"]
        let shown = lanes.lanes.prefix(Self.laneLimit)
        let width = shown.map(\.name.count).max() ?? 0
        lines += shown.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.description }
        if lanes.lanes.count > Self.laneLimit {
            lines.append("  ... and \(lanes.lanes.count - Self.laneLimit) more: lanes list")
        }
        return lines
    }
}
