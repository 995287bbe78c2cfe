internal import LanesPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor lanes writes text to. Every write is redacted: this is the last gate
/// before text leaves the process, so nothing printed by lanes can carry a secret.
public struct TextOutput: Sendable {
    let descriptor: Int32
    let redactor: Redactor

    public init(descriptor: Int32, redactor: Redactor) {
        self.descriptor = descriptor
        self.redactor = redactor
    }

    public static func standardOutput(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 1, redactor: redactor) }
    public static func standardError(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 2, redactor: redactor) }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        // A Lanefile's `print` goes through C stdio, which buffers when output is not a terminal:
        // flush it first, so its lines and lanes' own stay in the order they were written.
        fflush(nil)
        FileDescriptorIO.writeAll(Array(redactor.redact(text).utf8), to: descriptor)
    }

    public func writeLine(_ text: String) { write(text + "\n") }
}
