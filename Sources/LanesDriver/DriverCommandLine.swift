import LanesPlatform

/// Tells what a `lanes` command line asks for: a subcommand (served by `lanes-tool`), a lane (served
/// by the compiled Lanefile), or one of the few requests in between. A subcommand wins over a lane of
/// the same name; a test keeps `subcommands` equal to the tool's.
enum DriverCommandLine {
    static let subcommands = Subcommands.tool
    /// Handled by the tool's argument parser as they are.
    static let toolWords: Set<String> = ["--version", "--generate-completion-script", "--experimental-dump-help", "---completion"]
    /// The top-level help, which also lists the project's lanes.
    static let helpWords: Set<String> = ["-h", "--help", "help"]
    /// Subcommands that describe the project, so the tool gets told where its Lanefile and runner are
    /// (`lanes env`, `lanes schedule`: then they read the lanes the runner listed when it was compiled).
    static let projectSubcommands: Set<String> = ["env", "packages", "schedule"]
    /// Subcommands about steps: a Lanefile with package dependencies (`lanes/Package.swift`) adds its
    /// packages' steps, which only its runner knows, so it is compiled for them.
    static let stepSubcommands: Set<String> = ["actions", "run"]
    /// What completion scripts call for lane names: the cached runner's, never a compile.
    static let completeLanesWord = "__complete-lanes"

    enum Request: Equatable {
        /// `lanes --version`, answered by the driver itself (it needs nothing `lanes-tool` has).
        case version
        /// A subcommand, exec'd in `lanes-tool` as is.
        case tool
        /// The top-level help or a project subcommand: `lanes-tool`, with the project handed off.
        /// `compile`: compile the Lanefile when it is not cached yet (help lists the lanes).
        case toolWithProject(compile: Bool)
        /// `lanes actions`, `lanes run`: `lanes-tool`, with the project's runner when the Lanefile
        /// has package dependencies (compiled if need be), else as a plain subcommand.
        case toolWithPackageSteps
        /// Lane names for completion, from the cached runner only.
        case completeLanes
        /// A lane, `lanes list`, `lanes help LANE`, `lanes LANE --help`: the compiled Lanefile.
        case lane
    }

    static func request(for arguments: [String]) -> Request {
        guard let first = arguments.first else { return .toolWithProject(compile: true) }
        if arguments == ["--version"] { return .version }
        if first == completeLanesWord { return .completeLanes }
        if helpWords.contains(first) {
            // `lanes help LANE` is the lane's help; `lanes help cron` the subcommand's.
            if first == "help", arguments.count > 1, !subcommands.contains(arguments[1]) { return .lane }
            return arguments.count == 1 ? .toolWithProject(compile: true) : .tool
        }
        if projectSubcommands.contains(first) { return .toolWithProject(compile: false) }
        if stepSubcommands.contains(first) { return .toolWithPackageSteps }
        if subcommands.contains(first) || toolWords.contains(first) { return .tool }
        return .lane
    }

    static func isSubcommand(_ arguments: [String]) -> Bool {
        request(for: arguments) != .lane
    }
}
