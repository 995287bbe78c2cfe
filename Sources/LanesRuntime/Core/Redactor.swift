import Synchronization

/// Replaces every known secret value with `********` in text before it leaves lanes.
///
/// Secrets register as they are read, so a value read halfway through a lane is redacted from
/// then on, including output of child processes started earlier.
///
/// Matching is on UTF-8 bytes, never on grapheme clusters: a secret followed by a combining mark
/// (U+0301) or a joiner (U+200D) forms one `Character` with it, and a `String` search would miss it.
/// Each value also registers the shapes it takes in output (see `SecretShapes`), and every byte
/// covered by any match is masked, so overlapping secrets never leave a fragment behind.
public final class Redactor: Sendable {
    public static let mask = "********"
    /// Secrets shorter than this are still masked, but draw a warning: they mask ordinary text too.
    public static let shortSecretLength = 6

    private let state = Mutex<State>(State())
    private let onFirstSecret: (@Sendable (Redactor) -> Void)?
    private let onShortSecret: (@Sendable (String) -> Void)?

    private struct State {
        var values: Set<String> = []
        var matcher = SecretMatcher()
        var base64: [[UInt8]] = []
        var warnedNames: Set<String> = []
    }

    /// - Parameters:
    ///   - onFirstSecret: called once, when the first secret registers (before it can be written
    ///     anywhere), for work that only matters once there is something to redact.
    ///   - onShortSecret: called once per variable name whose value is shorter than
    ///     `shortSecretLength`, with the name (never the value), to warn the user.
    public init(secrets: [String] = [], onFirstSecret: (@Sendable (Redactor) -> Void)? = nil,
                onShortSecret: (@Sendable (String) -> Void)? = nil) {
        self.onFirstSecret = onFirstSecret
        self.onShortSecret = onShortSecret
        for secret in secrets { register(secret) }
    }

    /// Adds a value to redact, with its shapes. Empty values are ignored: they would match everywhere.
    /// - Parameter name: the variable the value came from, for the short-secret warning.
    public func register(_ value: String, name: String? = nil) {
        let shapes = SecretShapes(value)
        guard !shapes.patterns.isEmpty else { return }
        let (isFirst, warn) = state.withLock { state -> (Bool, Bool) in
            var warn = false
            if let name, shapes.isShort, state.warnedNames.insert(name).inserted { warn = true }
            guard state.values.insert(value).inserted else { return (false, warn) }
            let wasEmpty = state.matcher.isEmpty
            for shape in shapes.base64 where !state.base64.contains(shape) { state.base64.append(shape) }
            state.matcher = state.matcher.adding(shapes, base64: state.base64)
            return (wasEmpty, warn)
        }
        if isFirst { onFirstSecret?(self) }
        if warn, let name { onShortSecret?(name) }
    }

    /// Whether `value` was registered as a secret (exactly, not as one of its shapes).
    public func isSecret(_ value: String) -> Bool {
        state.withLock { $0.values.contains(value) }
    }

    /// How many values have registered: it only grows, so text redacted while it was lower may
    /// need redacting again.
    var registeredCount: Int { state.withLock { $0.values.count } }

    /// Whether nothing has registered yet (redaction is then free).
    public var isEmpty: Bool { state.withLock { $0.matcher.isEmpty } }

    /// Whether `text` contains any registered secret, in any of its shapes (those only a decoded
    /// view or a wrapped line shows included).
    public func containsSecret(_ text: String) -> Bool {
        let matcher = state.withLock { $0.matcher }
        guard !matcher.isEmpty else { return false }
        var text = text
        return text.withUTF8 { !matcher.covered($0).isEmpty }
    }

    public func redact(_ text: String) -> String {
        let matcher = state.withLock { $0.matcher }
        guard !matcher.isEmpty else { return text }
        var text = text
        return text.withUTF8 { bytes in
            matcher.masked(bytes).map { String(decoding: $0, as: UTF8.self) }
        } ?? text
    }

    /// What is registered now, taken once for a batch of lines; nil while nothing is.
    var currentMatcher: SecretMatcher? {
        let matcher = state.withLock { $0.matcher }
        return matcher.isEmpty ? nil : matcher
    }

    /// Redacts raw bytes (a child's output, a pipe); nil when nothing needed masking.
    public func redact(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let matcher = state.withLock { $0.matcher }
        guard !matcher.isEmpty else { return nil }
        return matcher.masked(bytes)
    }

    /// The length in bytes of the longest shape registered: a stream that redacts in chunks keeps
    /// this many bytes back, so that no secret is split between two chunks.
    public var longestSecretLength: Int { state.withLock { $0.matcher.patterns.longest } }

    /// Where a stream redacted in pieces may end the piece it passes on from `bytes` (all it holds
    /// so far): no shape that starts before the cut continues after it, and the bytes after the
    /// cut are enough to finish any shape that starts there. Redacting the piece alone, and the rest
    /// with what follows, then masks every secret whole. 0 when nothing may go yet.
    public func safeCut(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let patterns = state.withLock { $0.matcher.patterns }
        guard !patterns.isEmpty else { return bytes.count }
        return patterns.safeCut(in: bytes, before: bytes.count - (patterns.longest - 1))
    }
}
