/// A failure of the driver, with the exit status documented in the README.
struct DriverError: Error, CustomStringConvertible {
    static let usage: Int32 = 64
    static let compilation: Int32 = 65
    static let configuration: Int32 = 78

    let message: String
    let hint: String?
    let exitStatus: Int32

    init(_ message: String, hint: String? = nil, exitStatus: Int32) {
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }

    var description: String {
        guard let hint else { return message }
        return "\(message)\n  hint: \(hint)"
    }
}
