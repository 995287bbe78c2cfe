import ArgumentParser
import LanesPlatform

/// `lanes`: the root command. Each subcommand lives in its own file under `Commands/`. The top-level
/// help and `--version` are lanes' own (see `ToolRequest`): they say more than the parser knows.
struct LanesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "Continuous delivery for app teams, in typed Swift.",
        discussion: "Run a lane of the Lanefile.swift in this directory or above: lanes LANE [key:value ...]",
        subcommands: [
            ActionsCommand.self,
            RunCommand.self,
            InitCommand.self,
            CertCommand.self, ProfileCommand.self,
            CronCommand.self,
            XcodeCommand.self,
            GitCommand.self,
            ScheduleCommand.self, DaemonCommand.self, HistoryCommand.self, LogsCommand.self, ExportCommand.self,
            EnvCommand.self,
            CompletionCommand.self,
            UploadCommand.self, AscCommand.self,
            MatchCommand.self,
            ServeCommand.self, DoctorCommand.self,
            PackagesCommand.self, NewCommand.self,
            ImportCommand.self,
        ]
    )
}

/// The requests `lanes-tool` answers itself before the argument parser: the top-level help, which
/// lists the project's lanes, and `--version`, which names the compiler and the install location.
enum ToolRequest {
    case help
    case version

    init?(_ arguments: [String]) {
        switch arguments {
        case [], ["-h"], ["--help"], ["help"]: self = .help
        case ["--version"]: self = .version
        default: return nil
        }
    }

    func respond(environment: [String: String]) throws -> String {
        switch self {
        case .help:
            return TopLevelHelp(root: LanesCommand.self, handoff: ProjectHandoff(environment: environment)).rendered
        case .version:
            let installation = try Installation.locate(environment: environment)
            return VersionReport(installation: installation, toolchain: Toolchain(installation: installation, environment: environment)).rendered
        }
    }
}
