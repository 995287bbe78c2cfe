import LanesPlatform

/// The compiler run: standard output and error captured together (its diagnostics), in the
/// driver's own process group so that Ctrl-C at the terminal reaches swiftc directly.
enum CompilerRun {
    struct Outcome {
        let status: Int32
        let output: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        var child = ChildProcess(arguments)
        child.ownProcessGroup = false
        var output: [UInt8] = []
        do {
            let status = try child.runCapturingOutput(input: nil, started: { _ in }) { _, bytes in output.append(contentsOf: bytes) }
            return Outcome(status: status.shellStatus, output: String(decoding: output, as: UTF8.self))
        } catch {
            throw DriverError(error.description, kind: .configuration)
        }
    }
}
