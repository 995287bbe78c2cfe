/// The linear congruential generator of `java.util.Random`, bit for bit: Jenkins draws every `H`
/// value from one, so lanes must reproduce its exact sequence.
struct JavaRandom {
    private static let multiplier: UInt64 = 0x5_DEEC_E66D
    private static let addend: UInt64 = 0xB
    private static let mask: UInt64 = (1 << 48) - 1

    private var state: UInt64

    init(seed: Int64) {
        state = (UInt64(bitPattern: seed) ^ Self.multiplier) & Self.mask
    }

    /// `Random.next(bits)`: the top `bits` bits of the next 48-bit state.
    private mutating func next(bits: Int) -> Int32 {
        state = (state &* Self.multiplier &+ Self.addend) & Self.mask
        return Int32(truncatingIfNeeded: Int64(bitPattern: state >> UInt64(48 - bits)))
    }

    /// `Random.nextInt(bound)` for `bound > 0`, including its rejection loop.
    mutating func nextInt(_ bound: Int32) -> Int32 {
        precondition(bound > 0, "nextInt bound must be positive")
        var r = next(bits: 31)
        let m = bound &- 1
        if bound & m == 0 {
            return Int32(truncatingIfNeeded: (Int64(bound) &* Int64(r)) >> 31)
        }
        var u = r
        while true {
            r = u % bound
            if u &- r &+ m >= 0 { return r }
            u = next(bits: 31)
        }
    }
}
