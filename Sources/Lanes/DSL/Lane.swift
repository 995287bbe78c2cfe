/// A lane: a named, described, typed unit of work a team runs as `lanes NAME`.
public struct Lane: Sendable {
    public let name: String
    public let summary: String
    /// Typed `key:value` options the lane accepts.
    public let options: [OptionInfo]
    /// Variables the lane needs; all missing ones are reported together before any step runs.
    public let requiredEnvironment: [String]
    /// Secrets the lane needs, checked like `requiredEnvironment` and redacted from the start.
    public let requiredSecrets: [String]
    /// Jenkins-style cron specs on which `lanes daemon` fires this lane.
    public let schedules: [String]
    let body: @Sendable (LaneInvocation) async throws -> Void

    public init(_ name: String, _ summary: String, options: [OptionInfo] = [], environment: [String] = [],
                secrets: [String] = [], schedule: [String] = [],
                _ body: @escaping @Sendable () async throws -> Void) {
        self.init(name, summary, options: options, environment: environment, secrets: secrets, schedule: schedule) { _ in
            try await body()
        }
    }

    /// A lane whose body reads its typed options: `lane[version]`.
    public init(_ name: String, _ summary: String, options: [OptionInfo] = [], environment: [String] = [],
                secrets: [String] = [], schedule: [String] = [],
                _ body: @escaping @Sendable (LaneInvocation) async throws -> Void) {
        self.name = name
        self.summary = summary
        self.options = options
        self.requiredEnvironment = environment
        self.requiredSecrets = secrets
        self.schedules = schedule
        self.body = body
    }

    /// Calls this lane from another lane, with `key:value` options as on the command line.
    public func callAsFunction(_ options: [String: String] = [:]) async throws {
        guard let run = LaneRun.current else {
            throw LanesError(.internal, "lane \(name) was called outside a running lane")
        }
        try await run.call(self, options: options)
    }
}

/// What a lane body receives: its validated options. Its description names the lane only: the
/// options carry the whole environment, undeclared secrets included.
public struct LaneInvocation: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let laneName: String
    let values: OptionValues

    init(laneName: String, values: OptionValues) {
        self.laneName = laneName
        self.values = values
    }

    /// The typed value of one of the lane's options.
    public subscript<Value>(option: StepOption<Value>) -> Value {
        get throws { try values[option] }
    }

    public func optional<Value>(_ option: StepOption<Value>) throws -> Value? {
        try values.optional(option)
    }

    public var description: String { "lane \(laneName)" }
    public var debugDescription: String { "LaneInvocation(lane: \(laneName), options: \(values.given.keys.sorted()))" }
    public var customMirror: Mirror { Mirror(self, children: ["laneName": laneName]) }
}

/// Options of a lane are declared like options of a step.
public typealias LaneOption = StepOption

/// Calls another lane of the running Lanefile by name: `try await callLane("build", ["version": "1.2"])`.
public func callLane(_ name: String, _ options: [String: String] = [:]) async throws {
    guard let run = LaneRun.current else {
        throw LanesError(.internal, "lane \(name) was called outside a running lane")
    }
    guard let lane = run.lanefile.lane(named: name) else {
        throw LanesError(.configuration, "callLane: no lane named '\(name)' in the Lanefile")
    }
    try await run.call(lane, options: options)
}
