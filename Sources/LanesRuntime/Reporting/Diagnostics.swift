internal import Logging

/// lanes' own diagnostics (which dotenv files were read, which cleanups ran, which processes
/// started), for when a lane does something unexpected: `LANES_LOG_LEVEL=debug lanes LANE`.
/// They go to standard error through the redactor, after swift-log's level filter.
struct Diagnostics: Sendable {
    private let logger: Logger

    /// Reads the level from `LANES_LOG_LEVEL` (trace, debug, info, notice, warning, error, critical).
    init(environment: [String: String], output: TextOutput) {
        var logger = Logger(label: "lanes") { label in RedactedStreamHandler(label: label, output: output) }
        logger.logLevel = environment["LANES_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
        self.logger = logger
    }

    /// Diagnostics that go nowhere, for runs that have no standard error of their own.
    static let silent = Diagnostics(logger: Logger(label: "lanes") { _ in SwiftLogNoOpLogHandler() })

    private init(logger: Logger) { self.logger = logger }

    func debug(_ message: @autoclosure () -> String) { logger.debug("\(message())") }
    func warning(_ message: @autoclosure () -> String) { logger.warning("\(message())") }
}

/// Writes `[lanes debug] message` lines to a redacting output.
private struct RedactedStreamHandler: LogHandler {
    let label: String
    let output: TextOutput
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        output.writeLine("[\(label) \(event.level)] \(event.message)")
    }
}
