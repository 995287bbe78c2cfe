/// The base64 shapes of the secrets, found when a tool wraps its output: `base64` breaks lines at
/// 76 characters, `openssl base64` at 64, so a key longer than 57 bytes never appears on one line.
/// A wrapped stream puts the secret's base64 text across lines at any offset; each line then holds
/// one of three pieces of it:
/// - the whole line (after indentation, before `=` padding) lies inside a shape (8 characters or more);
/// - the line ends with the start of a shape (the first line of the secret);
/// - the line starts with the end of a shape (its last line).
///
/// A piece at a line's end or start is masked from 4 characters when the line is nothing but base64
/// (a wrapped stream's lines are), from 8 when it shares the line with other text. Up to three
/// characters of a shape may remain at a line's edge, as the characters an unwrapped stream shares
/// with the secret's neighbours remain.
struct WrappedBase64: Sendable {
    /// The shapes, standard and URL-safe alphabets (see `SecretShapes.base64Shapes`).
    private let shapes: [[UInt8]]
    /// Shapes by their first four characters, and by their last four.
    private let starts: [UInt32: [Int]]
    private let ends: [UInt32: [Int]]
    /// Every four-character window of every shape, sorted by its key: where a line inside a
    /// shape may start.
    private let windows: [Window]
    /// A bit per hashed four-character key that starts or ends a shape: most windows of a line
    /// are rejected with one load.
    private let edgeFilter: [UInt64]

    private struct Window: Sendable {
        let key: UInt32
        let shape: Int32
        let offset: Int32
    }

    static let pieceInBase64Line = 4
    static let pieceBesideOtherText = 8
    static let wholeLineInside = 8

    init(shapes: [[UInt8]]) {
        let shapes = shapes.filter { $0.count >= Self.wholeLineInside }
        var starts: [UInt32: [Int]] = [:], ends: [UInt32: [Int]] = [:]
        var windows: [Window] = []
        var filter = [UInt64](repeating: 0, count: 1024)
        for (index, shape) in shapes.enumerated() {
            let first = Self.key(shape, at: 0), last = Self.key(shape, at: shape.count - 4)
            starts[first, default: []].append(index)
            ends[last, default: []].append(index)
            for key in [first, last] { filter[Self.bucket(key) >> 6] |= 1 << UInt64(Self.bucket(key) & 63) }
            for offset in 0...(shape.count - 4) {
                windows.append(Window(key: Self.key(shape, at: offset), shape: Int32(index), offset: Int32(offset)))
            }
        }
        windows.sort { $0.key < $1.key }
        self.shapes = shapes
        self.starts = starts
        self.ends = ends
        self.windows = windows
        self.edgeFilter = filter
    }

    var isEmpty: Bool { shapes.isEmpty }

    /// Adds the ranges of `text` (one line or several) that hold a piece of a wrapped shape.
    func cover(_ text: UnsafeBufferPointer<UInt8>, into ranges: inout [Range<Int>]) {
        guard !shapes.isEmpty else { return }
        var start = 0
        while start < text.count {
            let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
            coverLine(text, start..<end, into: &ranges)
            start = end + 1
        }
    }

    private func coverLine(_ text: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, into ranges: inout [Range<Int>]) {
        var low = line.lowerBound, high = line.upperBound
        while low < high, Self.isBlank(text[low]) { low += 1 }
        while high > low, Self.isBlank(text[high - 1]) { high -= 1 }
        var padding = 0
        while high > low, padding < 2, text[high - 1] == UInt8(ascii: "=") { high -= 1; padding += 1 }
        guard high - low >= Self.pieceInBase64Line else { return }
        var firstEnd = low
        while firstEnd < high, Self.isBase64(text[firstEnd]) { firstEnd += 1 }
        var lastStart = high
        while lastStart > low, Self.isBase64(text[lastStart - 1]) { lastStart -= 1 }
        let wholeLine = firstEnd == high
        if wholeLine, high - low >= Self.wholeLineInside, isInsideAShape(text, low..<high) {
            ranges.append(low..<high)
            return
        }
        let minimum = wholeLine ? Self.pieceInBase64Line : Self.pieceBesideOtherText
        if firstEnd - low >= minimum, let length = longestShapeEnd(startingRun: text, low..<firstEnd, minimum: minimum) {
            ranges.append(low..<low + length)
        }
        if high - lastStart >= minimum, let length = longestShapeStart(endingRun: text, lastStart..<high, minimum: minimum) {
            ranges.append(high - length..<high)
        }
    }

    /// Whether the run is a substring of a shape.
    private func isInsideAShape(_ text: UnsafeBufferPointer<UInt8>, _ run: Range<Int>) -> Bool {
        let key = Self.key(text, at: run.lowerBound)
        var index = lowerBound(of: key)
        while index < windows.count, windows[index].key == key {
            let window = windows[index]
            let shape = shapes[Int(window.shape)]
            if shape.count - Int(window.offset) >= run.count,
               Self.equal(text, run.lowerBound, shape, Int(window.offset), run.count) { return true }
            index += 1
        }
        return false
    }

    /// The longest prefix of the run (at least `minimum`) that is the end of a shape.
    private func longestShapeEnd(startingRun text: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, minimum: Int) -> Int? {
        var length = run.count
        while length >= minimum {
            let key = Self.key(text, at: run.lowerBound + length - 4)
            if mayEdge(key), let candidates = ends[key] {
                for index in candidates where shapes[index].count >= length {
                    let shape = shapes[index]
                    if Self.equal(text, run.lowerBound, shape, shape.count - length, length) { return length }
                }
            }
            length -= 1
        }
        return nil
    }

    /// The longest suffix of the run (at least `minimum`) that is the start of a shape.
    private func longestShapeStart(endingRun text: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, minimum: Int) -> Int? {
        var length = run.count
        while length >= minimum {
            let start = run.upperBound - length
            let key = Self.key(text, at: start)
            if mayEdge(key), let candidates = starts[key] {
                for index in candidates where shapes[index].count >= length {
                    if Self.equal(text, start, shapes[index], 0, length) { return length }
                }
            }
            length -= 1
        }
        return nil
    }

    private func mayEdge(_ key: UInt32) -> Bool {
        let bucket = Self.bucket(key)
        return edgeFilter[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0
    }

    private func lowerBound(of key: UInt32) -> Int {
        var low = 0, high = windows.count
        while low < high {
            let middle = (low + high) / 2
            if windows[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func key(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) -> UInt32 {
        var index = bytes.index(bytes.startIndex, offsetBy: offset)
        var key: UInt32 = 0
        for _ in 0..<4 {
            key = key << 8 | UInt32(bytes[index])
            index = bytes.index(after: index)
        }
        return key
    }

    private static func bucket(_ key: UInt32) -> Int { Int((key &* 0x9E37_79B1) >> 16) }

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ textStart: Int, _ shape: [UInt8], _ shapeStart: Int,
                              _ count: Int) -> Bool {
        for offset in 0..<count where text[textStart + offset] != shape[shapeStart + offset] { return false }
        return true
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// Both alphabets: `+/` and the URL-safe `-_`.
    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
