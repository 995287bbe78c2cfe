import ArgumentParser
import LanesPlatform

/// `lanes`: the root command. Each subcommand lives in its own file under `Commands/`.
struct LanesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "Continuous delivery for app teams, in typed Swift.",
        discussion: "Run a lane of the Lanefile.swift in this directory or above: lanes LANE [key:value ...]",
        version: LanesVersion.current,
        subcommands: [
            ActionsCommand.self,
            RunCommand.self,
            InitCommand.self,
            CertCommand.self, ProfileCommand.self,
            CronCommand.self,
            XcodeCommand.self,
            GitCommand.self,
            ScheduleCommand.self, DaemonCommand.self, HistoryCommand.self, LogsCommand.self, ExportCommand.self,
            ServeCommand.self, DoctorCommand.self,
        ]
    )
}
