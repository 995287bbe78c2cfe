/// Cuts a child's output into lines, whatever their length. A line longer than `longestLine` is
/// passed on in pieces rather than failing the step (a minified bundle, a base64 blob). So that a
/// secret is never cut in two between pieces (and so never escapes redaction), each piece keeps
/// back the last `holdBack() - 1` bytes, the most of a secret that can start before its end; they
/// open the next piece.
struct LineSplitter {
    static let longestLine = 64 * 1024

    private let holdBack: () -> Int
    private let longestLine: Int
    private var pending: [UInt8] = []

    /// - Parameter holdBack: the length of the longest secret registered (it can grow while a step runs).
    init(longestLine: Int = Self.longestLine, holdBack: @escaping () -> Int) {
        self.longestLine = longestLine
        self.holdBack = holdBack
    }

    /// The complete lines (or pieces) in what has arrived so far, without their line ends.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (String) -> Void) {
        var start = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
            pending.append(contentsOf: bytes[start..<index])
            emit(Self.text(of: pending[...]))
            pending.removeAll(keepingCapacity: true)
            start = index + 1
        }
        pending.append(contentsOf: bytes[start...])
        while pending.count > longestLine {
            let kept = min(max(holdBack() - 1, 0), longestLine / 2)
            let cut = Self.characterBoundary(in: pending, before: pending.count - kept)
            emit(Self.text(of: pending[..<cut]))
            pending.removeFirst(cut)
        }
    }

    /// The last line, when the output did not end with a line end.
    mutating func finish(emit: (String) -> Void) {
        if !pending.isEmpty { emit(Self.text(of: pending[...])) }
        pending.removeAll()
    }

    private static func text(of line: ArraySlice<UInt8>) -> String {
        let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        return String(decoding: content, as: UTF8.self)
    }

    /// `limit`, moved back to the start of a UTF-8 sequence, so a piece never ends mid-character.
    private static func characterBoundary(in bytes: [UInt8], before limit: Int) -> Int {
        var cut = limit
        while cut > 0, cut < bytes.count, bytes[cut] & 0b1100_0000 == 0b1000_0000 { cut -= 1 }
        return cut > 0 ? cut : limit
    }
}
