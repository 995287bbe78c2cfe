import LanesPlatform

/// A failure of the driver, with the exit status documented in the README.
struct DriverError: Error, CustomStringConvertible {
    static let usage = ExitStatus.usage.rawValue
    static let compilation = ExitStatus.compilation.rawValue
    static let configuration = ExitStatus.configuration.rawValue

    let message: String
    let hint: String?
    let exitStatus: Int32

    init(_ message: String, hint: String? = nil, exitStatus: Int32) {
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }

    /// A failure whose message a child process (lanes-tool) already printed.
    static func alreadyReported(exitStatus: Int32) -> DriverError {
        DriverError("", exitStatus: exitStatus)
    }

    var description: String {
        guard let hint else { return message }
        return "\(message)\n  hint: \(hint)"
    }
}
