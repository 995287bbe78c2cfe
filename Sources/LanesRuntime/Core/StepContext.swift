public import LanesPlatform  // Host in the public initializer

/// Everything a step may touch, handed to it rather than reached through globals, so tests can
/// give a step a temporary directory, a recorded tool or a captured log.
public struct StepContext: Sendable {
    public let environment: Environment
    /// Where the Lanefile lives; relative paths in options resolve against it.
    public let projectDirectory: String
    /// Where lanes keeps per-project state: keychains on Linux, installed profiles, history.
    public let stateDirectory: String
    /// Line output of the step; redacted before anyone sees it.
    public let log: StepLog
    /// Undo actions that run when the lane ends, however it ends (success, failure, Ctrl-C).
    public let cleanups: CleanupStack
    /// Starts child processes.
    public let processes: any ProcessRunning
    /// What earlier steps of this lane left for later ones.
    public let values: LaneValues
    /// The host the lane runs on: its clocks time steps' deadlines and grace periods.
    public let host: any Host
    /// The lane's `Configuration` (`Lane(configuration:)`, `withConfiguration`): what fastlane's
    /// Appfile would supply.
    public let configuration: (any Configuration)?

    public init(environment: Environment, projectDirectory: String, stateDirectory: String, log: StepLog,
                cleanups: CleanupStack, processes: any ProcessRunning, values: LaneValues = LaneValues(),
                configuration: (any Configuration)? = nil, host: any Host = SystemHost()) {
        self.configuration = configuration
        self.environment = environment
        self.projectDirectory = projectDirectory
        self.stateDirectory = stateDirectory
        self.log = log
        self.cleanups = cleanups
        self.processes = processes
        self.values = values
        self.host = host
    }

    /// `path` made absolute against the project directory.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : projectDirectory + "/" + path
    }
}
