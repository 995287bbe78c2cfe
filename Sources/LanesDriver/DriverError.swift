import LanesPlatform

/// A failure of the driver, in the one error shape; its kind gives the exit status (`ExitStatus`).
struct DriverError: ClassifiedError {
    let lanesKind: ErrorKind
    let message: String
    let hint: String?
    /// The status of a child (`lanes-tool`) that already printed its error: the driver exits with it as is.
    private let reportedStatus: Int32?

    init(_ message: String, hint: String? = nil, kind: ErrorKind) {
        self.init(kind: kind, message: message, hint: hint, reportedStatus: nil)
    }

    private init(kind: ErrorKind, message: String, hint: String?, reportedStatus: Int32?) {
        lanesKind = kind
        self.message = message
        self.hint = hint
        self.reportedStatus = reportedStatus
    }

    /// A failure whose message a child process (lanes-tool) already printed.
    static func alreadyReported(exitStatus: Int32) -> DriverError {
        DriverError(kind: .laneFailure, message: "", hint: nil, reportedStatus: exitStatus)
    }

    var exitStatus: Int32 { reportedStatus ?? lanesKind.exitStatus }

    var description: String { shapedDescription }
}
