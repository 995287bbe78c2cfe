import ArgumentParser

/// `lanes`: the root command. Each subcommand lives in its own file under `Commands/`.
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
        ]
    )
}

extension LanesCommand {
    /// Whether the command line names a subcommand or asks for help, rather than a lane.
    static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        if ["-h", "--help", "help", "--version", "--generate-completion-script"].contains(first) { return true }
        return configuration.subcommands.contains { $0._commandName == first }
    }
}
