/// The source of `H` values: Jenkins' `hudson.scheduler.Hash`. One stream is shared by every line of
/// a schedule text, and each `H` term takes one draw in source order.
struct JenkinsHash {
    private var random: JavaRandom?

    /// `Hash.from(seed)`, or `Hash.zero()` (every `H` takes the lowest value) when `seed` is nil.
    init(seed: String?) {
        guard let seed else {
            random = nil
            return
        }
        random = JavaRandom(seed: Self.foldedSeed(seed))
    }

    /// The MD5 of the UTF-8 seed, its second half XORed onto the first, read as a big-endian Java long.
    static func foldedSeed(_ seed: String) -> Int64 {
        var digest = MD5.digest(Array(seed.utf8))
        for index in 8..<16 { digest[index % 8] ^= digest[index] }
        var folded: UInt64 = 0
        for index in 0..<8 { folded = folded << 8 | UInt64(digest[index]) }
        return Int64(bitPattern: folded)
    }

    /// A value in `0..<bound` (`bound > 0`).
    mutating func next(_ bound: Int32) -> Int32 {
        guard random != nil else { return 0 }
        return random!.nextInt(bound)
    }
}
