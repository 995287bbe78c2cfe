internal import LanesPlatform

/// A file descriptor lanes writes text to. Every write is redacted: this is the last gate
/// before text leaves the process, so nothing printed by lanes can carry a secret.
public struct TextOutput: Sendable {
    let descriptor: Int32
    let redactor: Redactor
    /// While a lane runs, the process's own streams may be pipes that redact what a Lanefile
    /// prints; lanes' output, already redacted, goes past them (see `RedactedStandardStreams`).
    let streams: RedactedStandardStreams?

    public init(descriptor: Int32, redactor: Redactor) {
        self.init(descriptor: descriptor, redactor: redactor, streams: nil)
    }

    init(descriptor: Int32, redactor: Redactor, streams: RedactedStandardStreams?) {
        self.descriptor = descriptor
        self.redactor = redactor
        self.streams = streams
    }

    public static func standardOutput(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 1, redactor: redactor) }
    public static func standardError(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 2, redactor: redactor) }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        switch streams?.route(for: descriptor) ?? .plain {
        case .plain: writePlain(Array(redactor.redact(text).utf8))
        case .throughPipe: writePlain(Array(text.utf8))  // the pipe's reader redacts: one pass, not two
        case .direct(let stream): streams?.writeDirect(Array(redactor.redact(text).utf8), to: stream)
        }
    }

    public func writeLine(_ text: String) { write(text + "\n") }

    /// Writes a line that an encoder (JSON, XML) built from parts it redacted one by one. Redacting
    /// the encoded text again could break its structure when a secret is `"` or `1`, so it is not.
    public func writeEncodedLine(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        if case .direct(let stream) = streams?.route(for: descriptor) ?? .plain {
            streams?.writeDirect(bytes, to: stream)
        } else {
            writePlain(bytes)
        }
    }

    private func writePlain(_ bytes: [UInt8]) {
        // A Lanefile's `print` goes through C stdio, which buffers when output is not a terminal:
        // flush it first, so its lines and lanes' own stay in the order they were written.
        fflush(nil)
        FileDescriptorIO.writeAll(bytes, to: descriptor)
    }
}
