internal import LanesPlatform

/// A read-only view of one log line's bytes (no newline), with the few searches the summariser needs.
/// It borrows the caller's buffer: nothing is copied unless a line turns out to matter.
struct ByteLine {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }
    var isEmpty: Bool { bytes.isEmpty }
    subscript(_ index: Int) -> UInt8 { bytes[index] }

    func hasPrefix(_ literal: StaticString, at offset: Int = 0) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset + length <= bytes.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + offset, literal.utf8Start, length) == 0
    }

    func hasSuffix(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard length <= bytes.count else { return false }
        return hasPrefix(literal, at: bytes.count - length)
    }

    /// The first offset at or after `start` where `literal` occurs.
    func firstIndex(of literal: StaticString, from start: Int = 0) -> Int? {
        let length = literal.utf8CodeUnitCount
        guard length > 0, let base = bytes.baseAddress else { return nil }
        let first = literal.utf8Start.pointee
        var position = start
        while position + length <= bytes.count {
            guard let hit = memchr(base + position, Int32(first), bytes.count - position - length + 1) else { return nil }
            let offset = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            if memcmp(base + offset, literal.utf8Start, length) == 0 { return offset }
            position = offset + 1
        }
        return nil
    }

    func contains(_ literal: StaticString) -> Bool { firstIndex(of: literal) != nil }

    /// The last offset where `literal` occurs.
    func lastIndex(of literal: StaticString) -> Int? {
        let length = literal.utf8CodeUnitCount
        var position = bytes.count - length
        while position >= 0 {
            if hasPrefix(literal, at: position) { return position }
            position -= 1
        }
        return nil
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func string(from start: Int) -> String { string(start..<bytes.count) }

    var string: String { string(0..<bytes.count) }

    func elementsEqual(_ other: [UInt8], in range: Range<Int>) -> Bool {
        guard range.count == other.count else { return false }
        if range.isEmpty { return true }
        return other.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress! + range.lowerBound, range.count) == 0 }
    }
}
