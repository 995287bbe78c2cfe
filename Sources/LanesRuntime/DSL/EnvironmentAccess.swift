internal import LanesPlatform

/// The value of a required environment variable in the current lane; fails naming the variable.
public func env(_ name: String) throws -> String {
    try currentRun(reading: name).context.environment.value(name)
}

/// The value of an environment variable, or `fallback` when it is unset or empty.
public func env(_ name: String, default fallback: String) throws -> String {
    let value = try currentRun(reading: name).context.environment[name] ?? ""
    return value.isEmpty ? fallback : value
}

/// A required secret from the environment, redacted from everything lanes prints from now on.
public func secret(_ name: String) throws -> Secret {
    try currentRun(reading: name).context.environment.secret(name)
}

/// Whether `program` is on the lane's PATH: a Lanefile archives with xcodebuild where Xcode exists
/// and builds the Swift package elsewhere.
public func commandExists(_ program: String) throws -> Bool {
    FilePath.which(program, path: try currentRun(reading: nil).context.environment["PATH"]) != nil
}

/// Prints a message in the lane's output, with secrets redacted (prefer it to `print`).
public func echo(_ message: String) throws {
    try currentRun(reading: nil).message(message)
}

private func currentRun(reading name: String?) throws -> LaneRun {
    guard let run = LaneRun.current else {
        let what = name.map { "variable \($0) was read" } ?? "echo was called"
        throw LanesError(.configuration, "\(what) outside a running lane", hint: "read the environment inside a lane body")
    }
    return run
}
