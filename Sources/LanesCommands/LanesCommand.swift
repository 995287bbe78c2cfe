import ArgumentParser
import Lanes
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

/// The program behind `lanes-tool` (its `main` runs it over the real host and exits with the status
/// it returns): lanes' own answers first, then the argument parser's command tree. Every error is
/// printed the same way, `error: MESSAGE` then `  hint: HINT`, with its kind's exit status.
public enum LanesTool {
    public static func run(host: any LanesPlatform.Host) async -> Int32 {
        let errors = TextOutput.standardError(Redactor())
        do {
            let arguments = host.arguments
            if let request = ToolRequest(arguments) {
                TextOutput.standardOutput(Redactor()).write(try request.respond(environment: host.environment))
                return 0
            }
            var command = try LanesCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.runAsynchronously()
            } else {
                try command.run()
            }
            return 0
        } catch let error as any ClassifiedError {
            // Every module's errors have the one shape: message, hint, and a kind that picks the exit status.
            // A message may quote a server, a file or a tool: its control characters are shown, not obeyed.
            errors.writeLine("error: \(TerminalText.visible(error.shapedDescription, keepingLineBreaks: true))")
            return error.lanesKind.exitStatus
        } catch {
            // The parser's own errors, help and version requests: its text and its exit code.
            let message = LanesCommand.fullMessage(for: error)
            let code = LanesCommand.exitCode(for: error)
            if !message.isEmpty {
                let output = code == .success ? TextOutput.standardOutput(Redactor()) : errors
                output.writeLine(message)
            }
            return code.rawValue
        }
    }
}

extension AsyncParsableCommand {
    /// Calls the async `run()`: on an existential, the plain call picks the synchronous
    /// requirement inherited from `ParsableCommand`, which only prints help.
    mutating func runAsynchronously() async throws {
        let asyncRun: (inout Self) async throws -> Void = { try await $0.run() }
        try await asyncRun(&self)
    }
}
