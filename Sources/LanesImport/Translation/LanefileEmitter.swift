/// Lines of the Lanefile being written, each with the Fastfile line it came from, so a compiler
/// error in the Lanefile can name the Fastfile line.
struct LanefileEmitter {
    private(set) var lines: [(text: String, source: Int?)] = []
    var indent = 0

    mutating func emit(_ text: String, source: Int?) {
        let prefix = String(repeating: "    ", count: indent)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append((line.isEmpty ? "" : prefix + line, source))
        }
    }

    mutating func append(_ other: LanefileEmitter) {
        let prefix = String(repeating: "    ", count: indent)
        lines += other.lines.map { ($0.text.isEmpty ? "" : prefix + $0.text, $0.source) }
    }

    mutating func truncate(to count: Int) {
        if lines.count > count { lines.removeLast(lines.count - count) }
    }

    /// `// ` before every line of `text` (Fastfile text: quoted through `SwiftText`), for TODO blocks and notes.
    mutating func comment(_ text: String, source: Int?) {
        for line in SwiftText.commentLines(text) {
            emit("// " + line, source: source)
        }
    }

    /// One comment line of `text` (quoted through `SwiftText`: a line end in it shows as `\n`).
    mutating func comment(line text: String, source: Int?) {
        emit("// " + SwiftText.commentLine(text), source: source)
    }

    var text: String { lines.map(\.text).joined(separator: "\n") + "\n" }

    /// Lanefile line (1-based) to Fastfile line.
    var sourceLines: [Int: Int] {
        var map: [Int: Int] = [:]
        for (offset, line) in lines.enumerated() { if let source = line.source { map[offset + 1] = source } }
        return map
    }
}
