internal import CGit2

/// A 20-byte object name held as plain integers: cheap to hash and compare while walking
/// hundreds of thousands of commits.
struct RawObjectID: Hashable {
    let high: UInt64
    let middle: UInt64
    let low: UInt32

    init(bytes: UnsafeRawPointer) {
        high = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        middle = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        low = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
    }

    init(_ oid: git_oid) {
        var oid = oid
        self = withUnsafeBytes(of: &oid.id) { RawObjectID(bytes: $0.baseAddress!) }
    }

    /// Parses 40 lowercase hex digits; nil for anything else.
    init?(hex: UnsafeRawBufferPointer) {
        guard hex.count >= 40,
              let high = Self.parse(hex, from: 0, digits: 16),
              let middle = Self.parse(hex, from: 16, digits: 16),
              let low = Self.parse(hex, from: 32, digits: 8)
        else { return nil }
        self.high = high
        self.middle = middle
        self.low = UInt32(low)
    }

    private static func parse(_ hex: UnsafeRawBufferPointer, from start: Int, digits: Int) -> UInt64? {
        var value: UInt64 = 0
        for index in start..<(start + digits) {
            guard let digit = nibble(hex[index]) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    var oid: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { buffer in
            buffer.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: middle.bigEndian, toByteOffset: 8, as: UInt64.self)
            buffer.storeBytes(of: low.bigEndian, toByteOffset: 16, as: UInt32.self)
        }
        return oid
    }

    /// The first byte, which selects the pack index's fan-out bucket.
    var firstByte: Int { Int(high >> 56) }

    /// Orders like the bytes do, as pack indexes sort names.
    static func compare(_ lhs: RawObjectID, _ rhs: RawObjectID) -> Int {
        if lhs.high != rhs.high { return lhs.high < rhs.high ? -1 : 1 }
        if lhs.middle != rhs.middle { return lhs.middle < rhs.middle ? -1 : 1 }
        if lhs.low != rhs.low { return lhs.low < rhs.low ? -1 : 1 }
        return 0
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 48...57: character - 48
        case 97...102: character - 87
        default: nil
        }
    }
}
