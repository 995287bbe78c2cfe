/// A lane: a named, described, typed unit of work a team runs as `lanes NAME`.
public struct Lane: Sendable, CustomStringConvertible {
    public let name: String
    public let summary: String
    /// Typed `key:value` options the lane accepts.
    public let options: [OptionInfo]
    /// Variables the lane needs; all missing ones are reported together before any step runs.
    public let requiredEnvironment: [String]
    /// Secrets the lane needs, checked like `requiredEnvironment` and redacted from the start.
    public let requiredSecrets: [String]
    /// Programs the lane runs (`xcodes`, `fastlane`, `swiftlint`): each must be on PATH before the
    /// first step, and `lanes doctor` checks them too.
    public let requiredTools: [String]
    /// Jenkins-style cron specs on which `lanes daemon` fires this lane.
    public let schedules: [String]
    /// What else starts this lane: `.schedule`, `.pollSCM`, `.hashSeed`, `.timeZone` (LaneTriggers.swift).
    public internal(set) var triggers = LaneTriggers()
    /// The Lanefile line that declares the lane, for CI annotations that point at it.
    public let sourceLine: Int
    /// What the lane's steps take their app identifier and team from when not given (fastlane's
    /// Appfile), and build_app its build configuration and export method.
    public let configuration: (any Configuration)?
    let body: nonisolated(nonsending) @Sendable (LaneInvocation) async throws -> Void

    public init(_ name: String, _ summary: String, options: [any LaneOptionDeclaration] = [], environment: [String] = [],
                secrets: [String] = [], tools: [String] = [], schedule: [String] = [], configuration: (any Configuration)? = nil,
                line: Int = #line, _ body: nonisolated(nonsending) @escaping @Sendable () async throws -> Void) {
        self.init(name, summary, options: options, environment: environment, secrets: secrets, tools: tools, schedule: schedule,
                  configuration: configuration, line: line) { _ in
            try await body()
        }
    }

    /// A lane whose body reads its typed options: `lane[version]`.
    public init(_ name: String, _ summary: String, options: [any LaneOptionDeclaration] = [], environment: [String] = [],
                secrets: [String] = [], tools: [String] = [], schedule: [String] = [], configuration: (any Configuration)? = nil,
                line: Int = #line, _ body: nonisolated(nonsending) @escaping @Sendable (LaneInvocation) async throws -> Void) {
        self.configuration = configuration
        self.name = name
        self.summary = summary
        self.options = options.map(\.info)
        self.requiredEnvironment = environment
        self.requiredSecrets = secrets
        self.requiredTools = tools
        self.schedules = schedule
        self.sourceLine = line
        self.body = body
    }

    /// The lane's name, which is what a hook usually prints; never the environment or options.
    public var description: String { name }

    /// Calls this lane from another lane, with `key:value` options as on the command line.
    nonisolated(nonsending) public func callAsFunction(_ options: [String: String] = [:]) async throws {
        guard let run = LaneRun.current else {
            throw LanesError(.configuration, "lane \(name) was called outside a running lane", hint: "call lanes from a lane body")
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

    /// The typed value of one of the lane's options (nil for an optional one left out).
    public subscript<Value: OptionValue>(option: LaneOption<Value>) -> Value {
        get throws { try values[option] }
    }

    public var description: String { "lane \(laneName)" }
    public var debugDescription: String { "LaneInvocation(lane: \(laneName), options: \(values.given.keys.sorted()))" }
    public var customMirror: Mirror { Mirror(self, children: ["laneName": laneName]) }
}

/// Calls another lane of the running Lanefile by name: `try await callLane("build", ["version": "1.2"])`.
nonisolated(nonsending) public func callLane(_ name: String, _ options: [String: String] = [:]) async throws {
    guard let run = LaneRun.current else {
        throw LanesError(.configuration, "lane \(name) was called outside a running lane", hint: "call lanes from a lane body")
    }
    guard let lane = run.lanefile.lane(named: name) else {
        throw LanesError(.configuration, "callLane: no lane named '\(name)' in the Lanefile")
    }
    try await run.call(lane, options: options)
}
