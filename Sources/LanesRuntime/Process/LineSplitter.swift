internal import LanesPlatform

/// Cuts a child's output into lines, whatever their length. A line longer than `longestLine` is
/// passed on in pieces rather than failing the step (a minified bundle, a base64 blob). Each piece
/// ends where the redactor says no secret is cut in two (`Redactor.safeCut`): a secret that starts
/// in a piece ends in it, however long (a single-line secret of 64 KiB or more included).
struct LineSplitter {
    static let longestLine = 64 * 1024

    private let redactor: Redactor?
    private let longestLine: Int
    private var pending: [UInt8] = []

    /// - Parameter redactor: the secrets of the run (they can register while a step runs).
    init(longestLine: Int = Self.longestLine, redactor: Redactor?) {
        self.longestLine = longestLine
        self.redactor = redactor
    }

    /// The complete lines (or pieces) in what has arrived so far, without their line ends.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (String) -> Void) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let all = UnsafeBufferPointer(start: base, count: bytes.count)
        var start = 0
        while let newline = all[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if pending.isEmpty {
                // The common case: a whole line in this chunk, decoded straight from it.
                emit(Self.text(of: UnsafeBufferPointer(rebasing: all[start..<newline])))
            } else {
                pending.append(contentsOf: all[start..<newline])
                pending.withUnsafeBufferPointer { emit(Self.text(of: $0)) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        pending.append(contentsOf: all[start...])
        emitPieces { piece in piece.withUnsafeBufferPointer { emit(Self.text(of: $0)) } }
    }

    /// `feed` for a reader that takes lines in batches: `emitLines` gets bytes holding one or more
    /// complete lines, each ending in `\n` (a `\r` before it kept), straight from the chunk where it
    /// can; a piece of an overlong line comes with a `\n` added.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, emitLines: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let all = UnsafeBufferPointer(start: base, count: bytes.count)
        var start = 0
        if !pending.isEmpty, let first = memchr(base, 0x0A, all.count) {
            let newline = UnsafeRawPointer(first) - UnsafeRawPointer(base)
            pending.append(contentsOf: all[...newline])
            pending.withUnsafeBufferPointer(emitLines)
            pending.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        // memchr finds whether a line ends here at all (a long line's chunk has none); the last line
        // end is then near the chunk's end.
        if pending.isEmpty, start < all.count, memchr(base + start, 0x0A, all.count - start) != nil {
            var newline = all.count - 1
            while all[newline] != UInt8(ascii: "\n") { newline -= 1 }
            emitLines(UnsafeBufferPointer(rebasing: all[start...newline]))
            start = newline + 1
        }
        pending.append(contentsOf: all[start...])
        emitPieces { piece in
            var line = Array(piece)
            line.append(UInt8(ascii: "\n"))
            line.withUnsafeBufferPointer(emitLines)
        }
    }

    /// `finish` for `feed(_:emitLines:)`.
    mutating func finish(emitLines: (UnsafeBufferPointer<UInt8>) -> Void) {
        if !pending.isEmpty {
            pending.append(UInt8(ascii: "\n"))
            pending.withUnsafeBufferPointer(emitLines)
        }
        pending.removeAll()
    }

    /// Passes on a piece of a line longer than `longestLine`, cut where no secret is cut in two.
    private mutating func emitPieces(_ emit: (ArraySlice<UInt8>) -> Void) {
        guard pending.count > longestLine else { return }
        let safe = pending.withUnsafeBufferPointer { redactor?.safeCut(in: $0) ?? $0.count }
        let cut = Self.characterBoundary(in: pending, before: safe)
        // Nothing may go yet while a secret longer than the piece is still arriving.
        guard cut > 0 else { return }
        emit(pending[..<cut])
        pending.removeFirst(cut)
    }

    /// The last line, when the output did not end with a line end.
    mutating func finish(emit: (String) -> Void) {
        if !pending.isEmpty { pending.withUnsafeBufferPointer { emit(Self.text(of: $0)) } }
        pending.removeAll()
    }

    private static func text(of line: UnsafeBufferPointer<UInt8>) -> String {
        let content = line.last == UInt8(ascii: "\r") ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
        return String(decoding: content, as: UTF8.self)
    }

    /// `limit`, moved back to the start of a UTF-8 sequence, so a piece never ends mid-character.
    private static func characterBoundary(in bytes: [UInt8], before limit: Int) -> Int {
        var cut = limit
        while cut > 0, cut < bytes.count, bytes[cut] & 0b1100_0000 == 0b1000_0000 { cut -= 1 }
        return cut
    }
}
