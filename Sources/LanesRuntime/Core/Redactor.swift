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
        var patterns = PatternSet(patterns: [])
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
            let wasEmpty = state.patterns.isEmpty
            state.patterns = state.patterns.adding(shapes.patterns)
            return (wasEmpty, warn)
        }
        if isFirst { onFirstSecret?(self) }
        if warn, let name { onShortSecret?(name) }
    }

    /// Whether `value` was registered as a secret (exactly, not as one of its shapes).
    public func isSecret(_ value: String) -> Bool {
        state.withLock { $0.values.contains(value) }
    }

    /// Whether nothing has registered yet (redaction is then free).
    public var isEmpty: Bool { state.withLock { $0.patterns.isEmpty } }

    /// Whether `text` contains any registered secret, in any of its shapes.
    public func containsSecret(_ text: String) -> Bool {
        let patterns = state.withLock { $0.patterns }
        guard !patterns.isEmpty else { return false }
        var text = text
        return text.withUTF8 { patterns.firstMatch(in: $0) != nil }
    }

    public func redact(_ text: String) -> String {
        let patterns = state.withLock { $0.patterns }
        guard !patterns.isEmpty else { return text }
        var text = text
        return text.withUTF8 { bytes in
            patterns.masked(bytes).map { String(decoding: $0, as: UTF8.self) }
        } ?? text
    }

    /// Redacts raw bytes (a child's output, a pipe); nil when nothing needed masking.
    public func redact(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let patterns = state.withLock { $0.patterns }
        guard !patterns.isEmpty else { return nil }
        return patterns.masked(bytes)
    }

    /// The length in bytes of the longest shape registered: a stream that redacts in chunks keeps
    /// this many bytes back, so that no secret is split between two chunks.
    public var longestSecretLength: Int { state.withLock { $0.patterns.longest } }

    /// Where a stream redacted in pieces may end the piece it passes on from `bytes` (all it holds
    /// so far): no shape that starts before the cut continues after it, and the bytes after the
    /// cut are enough to finish any shape that starts there. Redacting the piece alone, and the rest
    /// with what follows, then masks every secret whole. 0 when nothing may go yet.
    public func safeCut(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let patterns = state.withLock { $0.patterns }
        guard !patterns.isEmpty else { return bytes.count }
        return patterns.safeCut(in: bytes, before: bytes.count - (patterns.longest - 1))
    }
}

/// The forms one secret value takes in output, all of which are masked:
/// - the value itself;
/// - the value without trailing whitespace (`tok\n`, `tok\r\n` print as `tok`), and without
///   leading whitespace either;
/// - each line of a multi-line value (a PEM key, a JSON credential), without its indentation and
///   line ending, as a program printing the value line by line shows it. Lines shorter than
///   `minimumLineLength` (`{`, `}`) are skipped: masking them would mask every brace in the log and
///   they carry nothing of the secret.
struct SecretShapes {
    static let minimumLineLength = 4
    let patterns: [[UInt8]]
    let isShort: Bool

    init(_ value: String) {
        var found: [[UInt8]] = []
        func add(_ bytes: some Collection<UInt8>) {
            let shape = Array(bytes)
            if !shape.isEmpty, !found.contains(shape) { found.append(shape) }
        }
        let bytes = Array(value.utf8)
        add(bytes)
        let trimmed = bytes.trimmingTrailing(where: Self.isSpace)
        add(trimmed)
        // Leading whitespace goes too when a shell prints the value unquoted (`echo $TOKEN`).
        add(trimmed.drop(while: Self.isSpace))
        if trimmed.contains(UInt8(ascii: "\n")) {
            for line in trimmed.split(separator: UInt8(ascii: "\n")) {
                let content = line.drop(while: Self.isSpace).trimmingTrailing(where: Self.isSpace)
                if content.count >= Self.minimumLineLength { add(content) }
            }
        }
        isShort = !bytes.isEmpty && String(decoding: trimmed, as: UTF8.self).count < Redactor.shortSecretLength
        // Encoded shapes (as GitHub's runner masks them): a child that prints the secret in base64,
        // percent-encoded or JSON-escaped leaks it just the same. Skipped for short secrets, whose
        // encodings are short enough to mask ordinary text.
        if !isShort {
            let plain = found
            for shape in plain {
                for encoded in Self.base64Shapes(shape) where encoded.count >= Self.minimumEncodedLength { add(encoded) }
                for encoded in [Self.percentEncoded(shape, upper: true), Self.percentEncoded(shape, upper: false),
                                Self.percentEncoded(shape, upper: true, spaceAsPlus: true), Self.jsonEscaped(shape, slash: false),
                                Self.jsonEscaped(shape, slash: true)] {
                    add(encoded)
                }
            }
        }
        patterns = found
    }

    /// Encoded shapes shorter than this are not masked (they would mask ordinary words).
    static let minimumEncodedLength = 8

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text the value produces wherever it sits in an encoded stream: the stream groups
    /// bytes by three, so the value starts a group, or its first one or two bytes end the group
    /// before. For each alignment, the characters that depend on the value's bytes alone (whole
    /// groups), in the standard and the URL-safe alphabet.
    static func base64Shapes(_ value: [UInt8]) -> [[UInt8]] {
        var shapes: [[UInt8]] = []
        for skip in 0..<3 where value.count > skip {
            let rest = value.dropFirst(skip)
            let whole = rest.count / 3 * 3
            guard whole > 0 else { continue }
            var text: [UInt8] = []
            var index = rest.startIndex
            while index < rest.startIndex + whole {
                let group = UInt32(rest[index]) << 16 | UInt32(rest[index + 1]) << 8 | UInt32(rest[index + 2])
                for shift in [18, 12, 6, 0] { text.append(base64Alphabet[Int(group >> UInt32(shift) & 63)]) }
                index += 3
            }
            shapes.append(text)
            let urlSafe = text.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            if urlSafe != text { shapes.append(urlSafe) }
        }
        return shapes
    }

    /// RFC 3986 percent-encoding (unreserved characters kept), with upper or lower-case digits,
    /// and the form-encoding variant that writes a space as `+`.
    static func percentEncoded(_ value: [UInt8], upper: Bool, spaceAsPlus: Bool = false) -> [UInt8] {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        for byte in value {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return out
    }

    /// The value inside a JSON string: quotes, backslashes and control characters escaped (and
    /// `/` as `\/`, as some encoders write it).
    static func jsonEscaped(_ value: [UInt8], slash: Bool) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in value {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "/") where slash: out += Array("\\/".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return out
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

extension Collection where Element == UInt8 {
    func trimmingTrailing(where isTrimmed: (UInt8) -> Bool) -> [UInt8] {
        var result = Array(self)
        while let last = result.last, isTrimmed(last) { result.removeLast() }
        return result
    }
}

/// An immutable set of byte patterns with an index of their first two bytes, searched in one pass
/// over the text. Replaced as a whole when a secret registers, so readers take a reference under
/// the lock and search without holding it.
final class PatternSet: Sendable {
    /// Per first byte, the patterns starting with it, longest first.
    private let buckets: [[[UInt8]]]
    /// Bytes that are a whole pattern on their own (one-byte secrets).
    private let singles: [Bool]
    /// A bit per pair of bytes that starts a pattern of two bytes or more: one load per byte of
    /// text on the common path, and few false candidates even when all secrets share a first byte.
    private let pairs: [UInt64]
    let longest: Int

    init(patterns: [[UInt8]]) {
        var buckets = [[[UInt8]]](repeating: [], count: 256)
        var singles = [Bool](repeating: false, count: 256)
        var pairs = [UInt64](repeating: 0, count: 65536 / 64)
        for pattern in patterns where !pattern.isEmpty {
            buckets[Int(pattern[0])].append(pattern)
            if pattern.count == 1 {
                singles[Int(pattern[0])] = true
            } else {
                let pair = Int(pattern[0]) << 8 | Int(pattern[1])
                pairs[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }
        for index in buckets.indices { buckets[index].sort { $0.count > $1.count } }
        self.buckets = buckets
        self.singles = singles
        self.pairs = pairs
        self.longest = patterns.map(\.count).max() ?? 0
    }

    var isEmpty: Bool { longest == 0 }

    func adding(_ more: [[UInt8]]) -> PatternSet {
        var all = buckets.flatMap { $0 }
        for pattern in more where !all.contains(pattern) { all.append(pattern) }
        return PatternSet(patterns: all)
    }

    /// The end of the longest pattern that starts at `index`, if any.
    @inline(__always)
    private func matchEnd(at index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        for pattern in buckets[Int(text[index])] where pattern.count <= text.count - index {
            let matches = pattern.withUnsafeBufferPointer { candidate in
                memoryEqual(candidate.baseAddress!, text.baseAddress! + index, candidate.count)
            }
            if matches { return index + pattern.count }
        }
        return nil
    }

    /// Whether a pattern may start at `index` (cheap; `matchEnd` decides).
    @inline(__always)
    private func mayStart(at index: Int, in text: UnsafeBufferPointer<UInt8>, singles: UnsafeBufferPointer<Bool>,
                          pairs: UnsafeBufferPointer<UInt64>) -> Bool {
        let first = Int(text[index])
        if singles[first] { return true }
        guard index + 1 < text.count else { return false }
        let pair = first << 8 | Int(text[index + 1])
        return pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0
    }

    /// The largest cut at or before `limit` that no match crosses (a match starting at or after
    /// `limit` may still be incomplete, and is left for later). Never negative.
    func safeCut(in text: UnsafeBufferPointer<UInt8>, before limit: Int) -> Int {
        var cut = max(0, min(limit, text.count))
        var moved = true
        while moved, cut > 0 {
            moved = false
            for index in max(0, cut - longest + 1)..<cut {
                if let end = matchEnd(at: index, in: text), end > cut {
                    cut = index
                    moved = true
                    break
                }
            }
        }
        return cut
    }

    func firstMatch(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        return singles.withUnsafeBufferPointer { singles in
            pairs.withUnsafeBufferPointer { pairs in
                for index in 0..<text.count where mayStart(at: index, in: text, singles: singles, pairs: pairs) {
                    if matchEnd(at: index, in: text) != nil { return index }
                }
                return nil
            }
        }
    }

    /// The text with every byte covered by a match replaced, one mask per covered run; nil when
    /// nothing matched (the caller keeps its text, and nothing is copied).
    func masked(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let first = firstMatch(in: text) else { return nil }
        let mask = Array(Redactor.mask.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        result.append(contentsOf: text[0..<first])
        var coveredUntil = 0
        var index = first
        singles.withUnsafeBufferPointer { singles in
            pairs.withUnsafeBufferPointer { pairs in
                while index < text.count {
                    if mayStart(at: index, in: text, singles: singles, pairs: pairs),
                       let end = matchEnd(at: index, in: text), end > coveredUntil {
                        if index >= coveredUntil { result.append(contentsOf: mask) }
                        coveredUntil = end
                    }
                    if index >= coveredUntil { result.append(text[index]) }
                    index += 1
                }
            }
        }
        return result
    }
}

@inline(__always)
private func memoryEqual(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var offset = 0
    while offset < count {
        if left[offset] != right[offset] { return false }
        offset += 1
    }
    return true
}
