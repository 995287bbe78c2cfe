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

    /// The runs of `text` that matches cover, in order: overlapping matches make one run, a match
    /// that starts where another ends starts a run of its own. Empty when nothing matched.
    func coveredRuns(_ text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard let first = firstMatch(in: text) else { return [] }
        var runs: [Range<Int>] = []
        var coveredUntil = 0
        singles.withUnsafeBufferPointer { singles in
            pairs.withUnsafeBufferPointer { pairs in
                for index in first..<text.count where mayStart(at: index, in: text, singles: singles, pairs: pairs) {
                    guard let end = matchEnd(at: index, in: text), end > coveredUntil else { continue }
                    if index >= coveredUntil {
                        runs.append(index..<end)
                    } else {
                        runs[runs.count - 1] = runs[runs.count - 1].lowerBound..<end
                    }
                    coveredUntil = end
                }
            }
        }
        return runs
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
