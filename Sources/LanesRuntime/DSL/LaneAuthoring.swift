public import LanesPlatform

/// Whether the lane runs on a CI service: `CI` set to anything but `false`/`0` (most services set
/// `CI=true`), or a service lanes recognises by its own variables (Jenkins, GitLab, ...).
public var isCI: Bool {
    let variables = LaneRun.current?.context.environment.variables ?? ProcessEnvironment.current()
    let flag = (variables["CI"] ?? "").lowercased()
    return (!flag.isEmpty && flag != "false" && flag != "0") || CISystem.detect(in: variables) != nil
}

/// Stops the lane with `message`, reported with the Lanefile line that called `fail` (fastlane's
/// `UI.user_error!`). The lane's `onError` hook runs; the exit status is the lane-failure one.
public func fail(_ message: String, fileID: StaticString = #fileID, line: UInt = #line) throws -> Never {
    throw LaneFailureMessage(message: message, file: String(describing: fileID), line: Int(line))
}

/// The value, or a lane failure saying `what` has none: a required option fed from something that may
/// be absent (`lane[option]`, an environment read with no default), as fastlane stops on a missing value.
public func requireValue<Value>(_ value: Value?, _ what: String, fileID: StaticString = #fileID, line: UInt = #line) throws -> Value {
    guard let value else { try fail("\(what) has no value", fileID: fileID, line: line) }
    return value
}

/// The error `fail(_:)` throws: the message and where in the Lanefile it was raised.
public struct LaneFailureMessage: Error, Sendable, ClassifiedError, CustomStringConvertible {
    public let message: String
    /// The Lanefile's name (`Lanefile.swift`), without the module prefix `#fileID` carries.
    public let file: String
    public let line: Int

    init(message: String, file: String, line: Int) {
        self.message = message
        self.file = file.split(separator: "/").last.map(String.init) ?? file
        self.line = line
    }

    public var lanesKind: ErrorKind { .laneFailure }
    public var description: String { "\(file):\(line): \(message)" }
}

/// A value `withEnvironment` gives child processes and steps: plain text, or a `Secret`, which stays
/// masked in everything lanes prints.
public protocol LaneEnvironmentValue: Sendable {
    var environmentText: String { get }
    var isSecretValue: Bool { get }
}

extension String: LaneEnvironmentValue {
    public var environmentText: String { self }
    public var isSecretValue: Bool { false }
}

extension Secret: LaneEnvironmentValue {
    public var environmentText: String { value }
    public var isSecretValue: Bool { true }
}

/// Runs `body` with `variables` added to the lane's environment: every step called inside reads
/// them as option fallbacks (`LANES_SCHEME`, `FASTLANE_XCODEBUILD_SETTINGS_TIMEOUT`, ...), and every
/// child process it starts gets them. Secret values (from `secret(_:)`) stay masked; nested calls add
/// to the outer ones.
///
///     try await withEnvironment(["DEVELOPER_DIR": "/Applications/Xcode-16.2.app/Contents/Developer"]) {
///         try await buildApp(...)
///     }
public func withEnvironment<T: Sendable>(_ variables: [String: any LaneEnvironmentValue],
                                         _ body: () async throws -> T) async throws -> T {
    guard let run = LaneRun.current else {
        throw LanesError(.configuration, "withEnvironment was called outside a running lane", hint: "call it from a lane body")
    }
    for (name, value) in variables where value.isSecretValue {
        run.context.environment.redactor.register(value.environmentText, name: name)
    }
    let added = variables.mapValues(\.environmentText)
    return try await LaneRun.$environmentOverlay.withValue(LaneRun.environmentOverlay.merging(added) { $1 }) {
        try await body()
    }
}

/// A `ProcessRunning` that adds the `withEnvironment` variables to every child's environment; a
/// request's own variables still win.
struct OverlaidProcesses: ProcessRunning {
    let base: any ProcessRunning
    let variables: [String: String]

    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        var request = request
        request.environment = variables.merging(request.environment) { $1 }
        return try await base.run(request, onLine: onLine)
    }

    func run(_ request: ProcessRequest, log: StepLog, collector: LineCollector?) async throws -> ProcessOutcome {
        var request = request
        request.environment = variables.merging(request.environment) { $1 }
        return try await base.run(request, log: log, collector: collector)
    }
}

extension StepContext {
    /// This context with `variables` over its environment, for steps and their children.
    func overlaying(_ variables: [String: String]) -> StepContext {
        guard !variables.isEmpty else { return self }
        return StepContext(environment: Environment(variables: environment.variables.merging(variables) { $1 }, redactor: environment.redactor),
                           projectDirectory: projectDirectory, stateDirectory: stateDirectory, log: log, cleanups: cleanups,
                           processes: OverlaidProcesses(base: processes, variables: variables), values: values,
                           configuration: configuration, host: host)
    }
}
